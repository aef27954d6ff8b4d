/**
 * What happened to an imprint after it was made, for GET /api/why/imprint:<n>: its release from
 * quarantine when the handle was attested, each steward decision on it (who by public ref, what,
 * when, the receipt; never the steward's private note) and the court case that reviewed each
 * decision. Read by the imprint's number through indexes (a handful of rows, never the history).
 */
import type { AppContext } from '../../context.ts';
import { iso } from '../../../shared/time.ts';

const ACTIONS: Record<string, string> = {
  release: 'released it from the spam gate',
  keep_held: 'kept it held',
  dismiss: 'dismissed the reports on it as unfounded',
};

/** The release from quarantine, if any: the reason that replaces "quarantined". */
export async function quarantineRelease(ctx: AppContext, sequence: number): Promise<string | null> {
  const [row] = await ctx.db.query<{ handle: string; released_at: Date | string; receipt_id: string }>(
    'select handle, released_at, receipt_id from quarantine_releases where sequence = $1',
    [sequence],
  );
  if (!row) return null;
  return `Released from quarantine on ${iso(row.released_at)}, when agent:${row.handle} was attested (receipt ${row.receipt_id}): made while the handle was open, it now takes part in collective learning.`;
}

/** Steward decisions on the imprint and the court case that reviewed each, oldest first. */
export async function stewardHistory(ctx: AppContext, sequence: number): Promise<string[]> {
  const rows = await ctx.db.query<{
    action: string;
    steward: string;
    at: Date | string;
    receipt_id: string;
    case_id: string | null;
    state: string | null;
    outcome: string | null;
    opened_at: Date | string | null;
    final_at: Date | string | null;
    final_receipt_id: string | null;
    precedent_id: string | null;
  }>(
    `select a.action, a.steward, a.at, a.receipt_id, c.id as case_id, c.state, c.outcome, c.opened_at, c.final_at,
            c.final_receipt_id, c.precedent_id
       from steward_actions a left join governance_court_cases c on c.triage_action_id = a.id
      where a.sequence = $1 order by a.at, a.id limit 20`,
    [sequence],
  );
  const lines: string[] = [];
  for (const row of rows) {
    lines.push(
      `Steward decision: ${row.steward} ${ACTIONS[row.action] ?? row.action} on ${iso(row.at)} (receipt ${row.receipt_id}).`,
    );
    if (!row.case_id) continue;
    if (row.state === 'final') {
      const verdict = row.outcome === 'overturn' ? 'overturned that decision' : 'upheld that decision';
      lines.push(
        `Court case ${row.case_id} ${verdict} on ${iso(row.final_at!)} (receipt ${row.final_receipt_id}${row.precedent_id ? `, precedent ${row.precedent_id}` : ''}).`,
      );
    } else {
      lines.push(
        `Court case ${row.case_id} reviews that decision (opened ${iso(row.opened_at!)}; not final yet).`,
      );
    }
  }
  return lines;
}
