/**
 * /api/stats counts receipts from `receipt_tallies` (issue 20: the log days' rows it summed before
 * grow in pages with every receipt written), and the count is every receipt there is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { recordReceipt } from '../../../api/ledger/receipts.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get, post } = requests(() => t.app);

describe('/api/stats receipts', () => {
  it('equal the receipts recorded, over days and steps', async () => {
    t.clock.set('2026-11-20T10:00:00.000Z');
    for (let i = 0; i < 3; i++)
      expect(
        (await post('/api/agent/imprint', { agent: `stats-counter-${i}`, body: `a counted thought ${i}` }))
          .statusCode,
      ).toBe(200);
    t.clock.set('2026-11-21T10:00:00.000Z');
    for (const step of ['test.stats.a', 'test.stats.b', 'test.stats.b'])
      await t.database.db.transaction((tx) => recordReceipt(tx, { step, subject: 'x', at: t.clock.now() }));
    const stats = (await get('/api/stats')).json();
    const [row] = await t.database.db.query<{ receipts: number; days: number }>(
      'select (select count(*) from receipts)::int as receipts, (select sum(size) from log_days)::int as days',
    );
    expect(stats.receipts).toBe(row!.receipts);
    expect(stats.receipts).toBe(row!.days);
    expect(stats.receipts).toBeGreaterThanOrEqual(6);
  });
});
