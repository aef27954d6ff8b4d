/**
 * Migration 0074 on a database holding data: the Record is written at 0073 (both time-tally
 * systems live), then 0074 drops `time_tallies` and its triggers and backfills the kept imprint
 * hours and days with held imprints and evictions. Afterwards every kept hour and day equals the
 * imprints' own count, and keeps equalling it through new writes and a hold released.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../api/db/database.ts';
import { appendImprints, type NewImprint } from '../../../api/record/window.ts';
import { IMPRINT_KINDS } from '../../../shared/record/imprint.ts';
import { dropDatabase, serverUrl } from '../../helpers/db.ts';
import { at, missing } from '../../helpers/elements.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';

const url = serverUrl();
const name = `civitas_tally_${randomBytes(4).toString('hex')}`;
let db: Database;
const START = Date.parse('2026-11-01T09:41:00Z');

const draft = (i: number): NewImprint =>
  imprintDraft({
    kind: at(IMPRINT_KINDS, i % 3),
    body: `tally ${i}`,
    authorKind: i % 4 === 0 ? 'sovereign' : 'agent',
    authorRef: i % 4 === 0 ? 'abcd' : `agent-${i % 5}`,
    held: i % 9 === 0,
    heldReason: i % 9 === 0 ? 'burst' : null,
    // 17 minutes apart: about 40 imprints a UTC day, across hours and days.
    at: new Date(START + i * 17 * 60_000),
  });

async function write(from: number, to: number) {
  for (let i = from; i < to; i += 100) {
    const batch = Array.from({ length: Math.min(100, to - i) }, (_, j) => draft(i + j));
    await db.transaction((tx) => appendImprints(tx, batch));
  }
}

/** Kept hours and days against the imprints' own counts, every column. */
async function expectKeptEqualsRows() {
  for (const [table, key] of [
    ['imprint_hours', `date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC'`],
    ['imprint_days', `(created_at at time zone 'UTC')::date`],
  ]) {
    const at = table === 'imprint_hours' ? 'hour' : 'day';
    const diff = await db.query(
      `with x as (select ${key} as at, kind, author_kind, count(*) filter (where not held) as imprints,
                         count(*) filter (where held) as held, count(*) filter (where sequence > 500) as evictions
                    from imprints group by 1, 2, 3),
            k as (select ${at} as at, kind, author_kind, imprints, held, evictions from ${table}
                   where imprints <> 0 or held <> 0 or evictions <> 0)
       (select * from x except select * from k) union all (select * from k except select * from x)`,
    );
    expect(diff, table).toEqual([]);
  }
}

beforeAll(async () => {
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const own = new URL(url);
    own.pathname = `/${name}`;
    db = await openDatabase({ url: own.toString(), migrate: false });
  } else db = await openDatabase({ migrate: false });
  await db.orm.migrator.up({ to: 'Migration0073RecordLastAt' });
  await write(0, 560);
  await db.query('update imprints set held = false where sequence in (9, 18, 540)');
  await db.orm.migrator.up();
}, 240_000);
afterAll(async () => {
  await db?.close();
  if (url) await dropDatabase(url, name);
});

describe('migration 0074 on a Record holding data', () => {
  it('drops time_tallies and its triggers, and backfills held and evictions', async () => {
    const [gone = missing()] = await db.query<{ tables: string | number; triggers: string | number }>(
      `select (select count(*) from pg_class where relname = 'time_tallies') as tables,
              (select count(*) from pg_trigger where tgname like '%time_tally%') as triggers`,
    );
    expect(Number(gone.tables)).toBe(0);
    expect(Number(gone.triggers)).toBe(0);
    await expectKeptEqualsRows();
  });

  it('keeps them through new writes, a hold released and an imprint moved in place', async () => {
    await write(560, 640);
    await db.query('update imprints set held = false where sequence in (567, 630)');
    await db.query('update imprints set held = true where sequence = 600');
    await db.query(
      `update imprints set created_at = created_at - interval '1 day 3 hours', kind = 'signal' where sequence = 610`,
    );
    await expectKeptEqualsRows();
  });
});
