/**
 * What happened to an imprint after it was made, for GET /api/why/imprint:<n>: its release from
 * quarantine when the handle was attested, each steward decision on it (who by public ref, what,
 * when, the receipt; never the steward's private note) and the court case that reviewed each
 * decision. Read by the imprint's number through indexes (a handful of rows, never the history).
 */
import type { AppContext } from '../../context.ts';
import { iso } from '../../../shared/time.ts';
import { constant } from '../../db/kysely.ts';

const ACTIONS: Record<string, string> = {
  release: 'released it from the spam gate',
  keep_held: 'kept it held',
  dismiss: 'dismissed the reports on it as unfounded',
};

/** The release from quarantine, if any: the reason that replaces "quarantined". */
export async function quarantineRelease(ctx: AppContext, sequence: number): Promise<string | null> {
  const [row] = await ctx.db.kysely
    .selectFrom('quarantine_releases')
    .select(['handle', 'released_at', 'receipt_id'])
    .where('sequence', '=', sequence)
    .execute();
  if (!row) return null;
  return `Released from quarantine on ${iso(row.released_at)}, when agent:${row.handle} was attested (receipt ${row.receipt_id}): made while the handle was open, it now takes part in collective learning.`;
}

/** Steward decisions on the imprint and the court case that reviewed each, oldest first. */
export async function stewardHistory(ctx: AppContext, sequence: number): Promise<string[]> {
  const rows = await ctx.db.kysely
    .selectFrom('steward_actions as a')
    .leftJoin('governance_court_cases as c', 'c.triage_action_id', 'a.id')
    .select([
      'a.action',
      'a.steward',
      'a.at',
      'a.receipt_id',
      'c.id as case_id',
      'c.state',
      'c.outcome',
      'c.opened_at',
      'c.final_at',
      'c.final_receipt_id',
      'c.precedent_id',
    ])
    .where('a.sequence', '=', sequence)
    .orderBy('a.at')
    .orderBy('a.id')
    .limit(constant(20))
    .execute();
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
