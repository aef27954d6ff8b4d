/**
 * Equity without a scan (issue 20, migration 0090): `treasury_units`, how many patrons hold each
 * number of units, equals a recount of treasury_patrons after inserts, top-ups, a merge's delete,
 * updates to zero and a truncate; /api/equity gives the figures the holdings one by one give, and
 * no holder id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const query = <T = unknown>(text: string, params: unknown[] = []) => t.database.db.query<T>(text, params);

/** Patrons in one statement: [ref, units]. */
async function patrons(...rows: [string, number][]) {
  await query(
    `insert into treasury_patrons (holder_kind, holder_ref, public_ref, listed, units, since)
     select 'sovereign', ref, 'sovereign:' || ref, false, units, now() from unnest($1::text[], $2::int8[]) as p(ref, units)
     on conflict (holder_kind, holder_ref) do update set units = treasury_patrons.units + excluded.units`,
    [rows.map(([ref]) => ref), rows.map(([, units]) => units)],
  );
}

async function expectKeptEqualsRecount() {
  const recount = await query<{ units: number; holders: number }>(
    'select units, count(*)::int8 as holders from treasury_patrons where units > 0 group by units order by units',
  );
  const kept = await query<{ units: number; holders: number }>(
    'select units, holders from treasury_units where holders <> 0 order by units',
  );
  expect(kept).toEqual(recount);
  return recount;
}

/** The Gini of the holdings one by one, as the projector computed it before the distribution. */
function giniOf(units: number[]): number {
  const sorted = [...units].sort((a, b) => a - b);
  const total = sorted.reduce((s, u) => s + u, 0);
  const weighted = sorted.reduce((s, u, i) => s + (2 * (i + 1) - sorted.length - 1) * u, 0);
  return Math.round((weighted / (sorted.length * total)) * 10_000) / 10_000;
}

describe('the kept distribution of patronage units', () => {
  it('equals a recount after inserts, top-ups, deletes, updates to zero and a truncate', async () => {
    await patrons(['a', 5], ['b', 5], ['c', 12], ['d', 1]);
    await expectKeptEqualsRecount();
    await patrons(['a', 7], ['e', 5], ['f', 3]); // a tops up from 5 to 12, two arrive
    expect(await expectKeptEqualsRecount()).toEqual([
      { units: 1, holders: 1 },
      { units: 3, holders: 1 },
      { units: 5, holders: 2 },
      { units: 12, holders: 2 },
    ]);
    await query("update treasury_patrons set units = 0 where holder_ref = 'f'");
    await query("delete from treasury_patrons where holder_ref = 'd'");
    await expectKeptEqualsRecount();
    await query('truncate treasury_patrons');
    expect(await expectKeptEqualsRecount()).toEqual([]);
  });

  it('gives /api/equity the figures of the holdings one by one, and no holder id', async () => {
    const units = [2, 2, 2, 9, 40, 40, 1];
    await patrons(...units.map((u, i): [string, number] => [`p${i}`, u]));
    const res = await get('/api/equity');
    expect(res.statusCode).toBe(200);
    const total = units.reduce((s, u) => s + u, 0);
    expect(res.json()).toMatchObject({
      total_units: total,
      holders: units.length,
      top_holder_share: Math.round((40 / total) * 10_000) / 10_000,
      gini: giniOf(units),
    });
    expect(res.body).not.toMatch(/sovereign:p\d/);
    const wallet = (await get('/api/vitals')).json().wallet;
    expect(wallet).toMatchObject({ total_units: total, gini: giniOf(units) });
  });
});
