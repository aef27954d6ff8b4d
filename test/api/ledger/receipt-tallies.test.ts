/**
 * Receipts by step (migration 0041): the tallies /api/transparency reads stay equal to count(*)
 * over the log after receipts through the doors, batches, a redaction and deletions, because the
 * database moves them statement by statement in the writer's own transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { recordReceipt, recordReceipts } from '../../../api/ledger/receipts.ts';
import { redactReceiptSubjects } from '../../../api/ledger/redaction.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const db = () => t.database.db;

async function byStep() {
  const kept = await db().query<{ step: string; receipts: string; redacted: string }>(
    'select step, receipts, redacted from receipt_tallies where receipts > 0 or redacted > 0 order by step',
  );
  const counted = await db().query<{ step: string; receipts: string; redacted: string }>(
    `select step, count(*) as receipts, count(*) filter (where subject_redacted_at is not null) as redacted
       from receipts group by step order by step`,
  );
  const shape = (rows: typeof kept) => rows.map((r) => [r.step, Number(r.receipts), Number(r.redacted)]);
  return { kept: shape(kept), counted: shape(counted) };
}

describe('receipt tallies', () => {
  it('match count(*) by step after doors, batches, a redaction and deletions; transparency reads them', async () => {
    await signedInSovereign(t.app);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/agent/imprint',
          payload: { agent: `rt-${i}`, body: `n ${i}` },
        }),
      ),
    );
    const at = t.clock.now();
    await db().transaction((tx) =>
      recordReceipts(tx, [
        { step: 'test.batch', subject: 'x:1', at },
        { step: 'test.batch', subject: 'x:2', at },
        { step: 'test.other', subject: 'x:3', at },
      ]),
    );
    const lone = await db().transaction((tx) => recordReceipt(tx, { step: 'test.lone', subject: 'x:4', at }));
    let { kept, counted } = await byStep();
    expect(counted.length).toBeGreaterThanOrEqual(4);
    expect(kept).toEqual(counted);

    await db().transaction((tx) => redactReceiptSubjects(tx, { ids: [lone.id], subjects: ['x:1'], at }));
    await db().query("delete from receipts where step = 'test.other'");
    ({ kept, counted } = await byStep());
    expect(counted.find((r) => r[0] === 'test.lone')).toEqual(['test.lone', 1, 1]);
    expect(kept).toEqual(counted);

    const report = (await t.app.inject({ method: 'GET', url: '/api/transparency' })).json();
    expect(report.receipts.by_step).toEqual(counted.map(([step, count]) => ({ step, count })));
    expect(report.redactions.receipts_with_subject_redacted).toBe(
      counted.reduce((sum, r) => sum + Number(r[2]), 0),
    );
  });
});
