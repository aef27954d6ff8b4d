/**
 * The ledger pages by key (issue 20, points 6 and 7): following `next` from the newest receipt
 * lists every receipt exactly once, newest first, even while receipts are recorded between pages;
 * `previous` walks back; a cursor it did not write is a 400. Its totals are tallies (receipts by
 * step, log days and sealed days) that agree with the tables after writes and a seal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { expectCursorsRefused, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 6; i++) await agentImprint(t.app, `ledger-pager-${i}`, `first day ${i}`);
  t.clock.set('2026-11-23T01:00:00.000Z');
  await sealDueDays(t.app.civitas);
  for (let i = 0; i < 5; i++) await agentImprint(t.app, `ledger-pager-${i}`, `second day ${i}`);
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const ids = (body: PageBody) => (body as PageBody & { receipts: { id: string }[] }).receipts.map((r) => r.id);

async function stored() {
  return (await t.database.db.query<{ id: string }>('select id from receipts order by id desc')).map(
    (r) => r.id,
  );
}

describe('/ledger pages by key', () => {
  it('lists every receipt once, newest first, while receipts arrive between pages', async () => {
    const before = await stored();
    expect(before.length).toBeGreaterThan(10);
    const walked = await walkForward(get, '/ledger?limit=5', ids, async (page) => {
      if (page !== 1) return;
      // Later, as in life: a receipt id's time part orders it, and one minted in the same
      // millisecond as the page's receipts would sort among them by its random part.
      t.clock.advance(1_000);
      await agentImprint(t.app, 'ledger-late', 'recorded while someone paged');
    });
    expect(walked.items).toEqual(before);
    expect(await walkBack(get, walked.last, ids)).toEqual(await stored());
  });

  it('counts from tallies that agree with the tables', async () => {
    const body = (await get('/ledger')).json();
    const [counted = missing()] = await t.database.db.query<{
      receipts: number;
      days: number;
      sealed: number;
    }>(
      `select (select count(*)::int from receipts) as receipts, (select count(*)::int from log_days) as days,
              (select count(*)::int from anchors) as sealed`,
    );
    expect(counted.sealed).toBe(1);
    expect(counted.days).toBe(2);
    expect(body.totals).toEqual({
      receipts: counted.receipts,
      days: counted.days,
      sealed_days: counted.sealed,
    });
  });

  it('keeps the older before= form, and refuses cursors it did not write with 400', async () => {
    const all = await stored();
    const older = (await get(`/ledger?before=${all[1]}&limit=3`)).json();
    expect(older.receipts.map((r: { id: string }) => r.id)).toEqual(all.slice(2, 5));
    await expectCursorsRefused(get, '/ledger');
    expect((await get('/ledger?limit=101')).statusCode).toBe(400);
  });
});
