/**
 * The entities are the typed description of the migrated schema: every table has one, and the
 * ORM's own comparator finds no difference in tables, columns (type, nullability, default,
 * identity, enum values) or primary keys. Runs on whichever database the suite uses (real
 * PostgreSQL or the embedded one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../../api/db/entities.ts';
import { schemaDrift } from '../../../api/db/schema-drift.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
}, 60_000);
afterAll(() => test?.drop());

describe('entities against the migrated schema', () => {
  it('describe every table', async () => {
    const tables = await test.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'civitas_migrations'",
    );
    const described = new Set(ENTITIES.map((entity) => entity.meta.tableName));
    expect(tables.map((t) => t.table_name).filter((name) => !described.has(name))).toEqual([]);
    expect(described.size).toBe(tables.length);
  });

  it('show no drift in tables, columns or primary keys', async () => {
    expect(await schemaDrift(test.db.orm)).toEqual([]);
  });

  // Last: it changes the schema of this file's own database.
  it('would notice a column the migrations changed behind the entities', async () => {
    await test.db.query('alter table feedback alter column topic drop not null');
    await test.db.query('alter table lessons add column stray text');
    const drift = await schemaDrift(test.db.orm);
    expect(drift).toContain('public.feedback.topic: nullable differ');
    expect(drift).toContain('public.lessons.stray: in the table, not in the entity');
  });
});
