import type { AppContext } from '../context.ts';
import { denialCounts, recentDenials } from './denials.ts';
import { kAnonymousCount } from '../../shared/boundaries/k-anonymity.ts';
import type { Counts } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import { talliesUnder, keptValue } from '../db/tallies.ts';

async function count(ctx: AppContext, sql: string): Promise<number> {
  const [row] = await ctx.db.query<Counts<'n'>>(sql);
  return row?.n ?? 0;
}

/**
 * /api/transparency: counts of receipts (by step), denials (through the denial_receipt projector:
 * no actor ids), redactions, data requests, quarantines, anchors and witness marks. Receipts,
 * quarantines, anchors, marks, data requests and open reports are tallies the database keeps
 * (migrations 0022, 0041, 0067, 0070, 0084, 0086); the witnesses are a small table.
 */
export async function transparencyReport(ctx: AppContext) {
  const [bySteps, denials, recent] = await Promise.all([
    // Kept by triggers (migration 0041): one row per step, not a scan of the log.
    ctx.db.kysely
      .selectFrom('receipt_tallies')
      .select(['step', 'receipts as n', 'redacted'])
      .where('receipts', '>', constant(0))
      .orderBy('step')
      .execute(),
    denialCounts(ctx.db),
    recentDenials(ctx.db, 20),
  ]);
  const steps = bySteps.map((s) => ({ step: s.step, count: s.n }));
  // `data_requests:<kind>:<status>`, kept by triggers (migration 0086).
  const requests = await talliesUnder(ctx.db, 'data_requests:');
  const redactions = bySteps.reduce((sum, s) => sum + s.redacted, 0);
  const [unattested, held, reports, anchors, marks, witnesses] = await Promise.all([
    count(ctx, "select value as n from record_tallies where name = 'imprints_unattested'"),
    count(ctx, "select value as n from record_tallies where name = 'imprints_held'"),
    count(ctx, "select value as n from record_tallies where name = 'imprint_reports_open'"),
    count(ctx, "select value as n from record_tallies where name = 'anchors'"),
    count(ctx, "select value as n from record_tallies where name = 'witness_marks'"),
    count(ctx, 'select count(*) as n from witnesses'),
  ]);
  const dataRequests = (kind: string) => {
    const n = (status: string) => keptValue(requests, `${kind}:${status}`);
    // k-anonymity: a data-request count is about people; small groups read "fewer than 5"
    return {
      pending: kAnonymousCount(n('pending')),
      completed: kAnonymousCount(n('completed')),
      declined: kAnonymousCount(n('declined')),
    };
  };
  return {
    ok: true as const,
    schema: 'civitas.transparency.v1' as const,
    generated_at: ctx.clock.now().toISOString(),
    receipts: { total: steps.reduce((a, s) => a + s.count, 0), by_step: steps },
    denials: { total: denials.total, by_reason: denials.by_reason, recent },
    redactions: { receipts_with_subject_redacted: redactions },
    data_requests: { export: dataRequests('export'), erasure: dataRequests('erasure') },
    quarantines: { unattested, held, open_reports: reports },
    log: { anchors_sealed: anchors, witness_marks: marks, witnesses },
    principle:
      'A receipt proves that a step was recorded, not that a requested change was applied. Denial receipts name the refused action and the public form of the actor at most, never a raw id.',
  };
}
