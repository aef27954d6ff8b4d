import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { verifyNow } from '../verify-now.ts';
import { requests } from '../../../helpers/http.ts';
import { missing } from '../../../helpers/elements.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

/*
 * Linearizability is kept by the verification walks (record_order, log_order), not recomputed on
 * a request: a change to stored times shows at the next job run — found by the frontier in what
 * is new, by the rolling re-check in what was verified before — and never by the request itself.
 */
let t: TestApp;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');

const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

async function seed(i: number) {
  await t.database.db.transaction((tx) =>
    appendImprint(
      tx,
      imprintDraft({
        body: `an ordered thought ${i}`,
        authorRef: `october-${i % 3}`,
        at: new Date(NOW - 3 * 3_600_000 + i * 60_000),
      }),
    ),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 15; i++) await seed(i);
}, 120_000);
afterAll(async () => t?.close());

describe('GET /api/linearizability', () => {
  it('passes on an ordered history and names violations by sequence number only', async () => {
    await verifyNow(t);
    const ok = (await json('/api/linearizability')).json();
    expect(ok.linearizable).toBe(true);
    expect(ok.record.checked).toBe(15);
    expect(ok.receipts.checked).toBeGreaterThanOrEqual(15);
    // Already verified: the walks' rolling re-check finds it at the next run, not the request.
    await sql(`update imprints set created_at = created_at - interval '1 hour' where sequence = 10`);
    try {
      expect((await json('/api/linearizability')).json().linearizable).toBe(true);
      await verifyNow(t);
      const bad = (await json('/api/linearizability')).json();
      expect(bad.linearizable).toBe(false);
      expect(bad.record.violations).toBe(1);
      expect(bad.record.examples[0]).toMatchObject({ earlier_sequence: 9, later_sequence: 10 });
      expect(JSON.stringify(bad)).not.toMatch(/rcpt_|october-/);
    } finally {
      await sql(`update imprints set created_at = created_at + interval '1 hour' where sequence = 10`);
    }
    await verifyNow(t);
    expect((await json('/api/linearizability')).json().linearizable).toBe(true);
  });

  it('finds a new imprint recorded before the one below it at the next run (the frontier)', async () => {
    await seed(15);
    await sql(`update imprints set created_at = created_at - interval '1 day' where sequence = 16`);
    try {
      await verifyNow(t);
      const bad = (await json('/api/linearizability')).json();
      expect(bad.record.checked).toBe(16);
      expect(bad.record.examples).toEqual([
        expect.objectContaining({ earlier_sequence: 15, later_sequence: 16 }),
      ]);
    } finally {
      await sql(`update imprints set created_at = created_at + interval '1 day' where sequence = 16`);
    }
    await verifyNow(t);
    expect((await json('/api/linearizability')).json().record.violations).toBe(0);
  });

  it('finds a receipt recorded before the leaf below it in its day', async () => {
    const [row = missing()] = await sql<{ log_date: string; leaf_index: number }>(
      `select to_char(log_date, 'YYYY-MM-DD') as log_date, leaf_index from receipts where leaf_index > 0 order by log_date, leaf_index limit 1`,
    );
    const move = (sign: '-' | '+') =>
      sql(
        `update receipts set recorded_at = recorded_at ${sign} interval '2 hours' where log_date = $1 and leaf_index = $2`,
        [row.log_date, row.leaf_index],
      );
    await move('-');
    try {
      await verifyNow(t);
      const bad = (await json('/api/linearizability')).json();
      expect(bad.linearizable).toBe(false);
      expect(bad.receipts.violations).toBe(1);
      expect(bad.receipts.examples[0]).toEqual({
        date: row.log_date,
        earlier_leaf_index: Number(row.leaf_index) - 1,
        later_leaf_index: Number(row.leaf_index),
      });
    } finally {
      await move('+');
    }
    await verifyNow(t);
    expect((await json('/api/linearizability')).json().receipts.violations).toBe(0);
  });
});
