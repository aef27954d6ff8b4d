import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../api/db/database.ts';
import { PERSONAL_DATA } from '../../../api/personal-data.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { readFileSync } from 'node:fs';
import { personalDataTable } from '../../../scripts/personal-data-table.ts';

/**
 * The personal-data declarations (api/<family>/personal-data.ts, registered in api/personal-data.ts)
 * must cover the migrated schema: every column that can hold a sovereign id, a tag, an email, a
 * callsign or words a person wrote is declared personal by one family (so export and erasure reach
 * it), and every other text, id or JSON column is declared impersonal — a new column has to be
 * decided, it cannot be forgotten.
 */

// Column types that can carry an id, a tag, an address or words. Numbers, booleans and times cannot.
const TEXTUAL = new Set([
  'text',
  'character varying',
  'character',
  'uuid',
  'jsonb',
  'json',
  'ARRAY',
  'tsvector',
  'USER-DEFINED',
  'bytea',
]);

interface Column {
  table_name: string;
  column_name: string;
  data_type: string;
}

async function schemaColumns(sql: Sql): Promise<Column[]> {
  return sql.query<Column>(
    `select c.table_name, c.column_name, c.data_type from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`,
  );
}

/** Every way the declarations and the schema disagree, each as one sentence a maintainer can act on. */
export async function declarationGaps(sql: Sql): Promise<string[]> {
  const gaps: string[] = [];
  const owner = new Map<string, string>();
  const declared = new Map<string, { personal: Set<string>; impersonal: Set<string>; family: string }>();
  for (const family of PERSONAL_DATA) {
    for (const table of family.tables) {
      const other = owner.get(table.table);
      if (other) gaps.push(`table ${table.table} is declared by both ${other} and ${family.family}`);
      owner.set(table.table, family.family);
      const personal = new Set(Object.keys(table.personal));
      const impersonal = new Set(table.impersonal);
      for (const c of personal)
        if (impersonal.has(c))
          gaps.push(`${table.table}.${c} is declared both personal and impersonal by ${family.family}`);
      for (const c of table.keptWords ?? [])
        if (!personal.has(c))
          gaps.push(`${table.table}.${c} is in keptWords but not personal (${family.family})`);
      if (table.disposition === 'keep' && !table.why.trim())
        gaps.push(`${table.table} is kept without a stated basis (${family.family})`);
      declared.set(table.table, { personal, impersonal, family: family.family });
    }
  }
  const columns = await schemaColumns(sql);
  const tables = new Set(columns.map((c) => c.table_name));
  for (const c of columns) {
    const d = declared.get(c.table_name);
    if (!d) {
      if (TEXTUAL.has(c.data_type)) {
        gaps.push(
          `${c.table_name}.${c.column_name} (${c.data_type}) belongs to no personal-data declaration: table ${c.table_name} is undeclared. ` +
            `Add it to its family's api/<family>/personal-data.ts (and the family to PERSONAL_DATA in api/personal-data.ts), ` +
            `listing ${c.column_name} under \`personal\` (what it holds; export and erase it) or \`impersonal\` (it cannot hold a person's id, tag, email, callsign or words).`,
        );
      }
      continue;
    }
    const known = d.personal.has(c.column_name) || d.impersonal.has(c.column_name);
    if (TEXTUAL.has(c.data_type) && !known) {
      gaps.push(
        `${c.table_name}.${c.column_name} (${c.data_type}) belongs to no personal-data declaration. ` +
          `Add it to api/${d.family}/personal-data.ts, table ${c.table_name}: under \`personal\` (what it holds; export and erase it) ` +
          `or \`impersonal\` (it cannot hold a person's id, tag, email, callsign or words).`,
      );
    }
  }
  for (const [table, d] of declared) {
    if (!tables.has(table)) {
      gaps.push(
        `api/${d.family}/personal-data.ts declares table ${table}, which the migrated schema does not have`,
      );
      continue;
    }
    for (const c of [...d.personal, ...d.impersonal]) {
      if (!columns.some((x) => x.table_name === table && x.column_name === c))
        gaps.push(
          `api/${d.family}/personal-data.ts declares ${table}.${c}, which the migrated schema does not have`,
        );
    }
  }
  return gaps;
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('personal-data declarations cover the migrated schema', () => {
  it('every column that can hold a person, their address or their words is declared (and nothing declared is missing)', async () => {
    const gaps = await declarationGaps(database.db);
    expect(gaps, gaps.join('\n')).toEqual([]);
  });

  it('the columns that name a sovereign are declared personal, whatever their family', async () => {
    const personal = new Set(
      PERSONAL_DATA.flatMap((f) =>
        f.tables.flatMap((t) => Object.keys(t.personal).map((c) => `${t.table}.${c}`)),
      ),
    );
    const uuids = (await schemaColumns(database.db))
      .filter((c) => c.data_type === 'uuid')
      .map((c) => `${c.table_name}.${c.column_name}`);
    expect(uuids.length).toBeGreaterThan(10);
    for (const column of uuids) expect(personal.has(column), `${column} holds a sovereign id`).toBe(true);
    // ...and each names its holder, so /reconcile moves it (api/identity/merge.ts) and nothing is left on an absorbed row.
    const holders = new Set(
      PERSONAL_DATA.flatMap((f) =>
        f.tables.flatMap((t) => (t.holder ? [`${t.table}.${t.holder.column}`] : [])),
      ),
    );
    for (const column of uuids.filter((c) => c !== 'sovereigns.id'))
      expect(holders.has(column), `${column} is declared personal but not as a holder`).toBe(true);
    for (const column of holders)
      expect(personal.has(column), `${column} is a holder but not declared personal`).toBe(true);
  });

  it('fails, naming the column and where to declare it, when a migration adds an undeclared one', async () => {
    await database.db.query(
      'create table confluence_probe (id text primary key, due_token_hash text, count integer)',
    );
    await database.db.query('alter table governance_pledges add column probe_note text');
    try {
      const gaps = await declarationGaps(database.db);
      expect(
        gaps.some((g) =>
          g.startsWith(
            'confluence_probe.id (text) belongs to no personal-data declaration: table confluence_probe is undeclared',
          ),
        ),
      ).toBe(true);
      expect(gaps.some((g) => g.startsWith('confluence_probe.due_token_hash (text)'))).toBe(true);
      expect(gaps.some((g) => g.startsWith('confluence_probe.count'))).toBe(false);
      expect(gaps).toContainEqual(
        expect.stringContaining(
          'governance_pledges.probe_note (text) belongs to no personal-data declaration. Add it to api/governance/personal-data.ts',
        ),
      );
    } finally {
      await database.db.query('drop table confluence_probe');
      await database.db.query('alter table governance_pledges drop column probe_note');
    }
  });

  it('docs/identity.md carries the declarations table as the declarations print it', () => {
    const docs = readFileSync(new URL('../../../docs/identity.md', import.meta.url), 'utf8');
    expect(
      docs,
      'run `npx node scripts/personal-data-table.ts` and paste it into docs/identity.md',
    ).toContain(personalDataTable());
  });
});
