/**
 * Court cases as stored, read into records for the pure projections (shared/governance/court.ts):
 * each with the triage decision it contests, its opener's tag and its juror signatures.
 */
import type { Sql } from '../db/database.ts';
import type { RowOf } from '../db/rows.ts';
import type { Row } from '../db/kysely.ts';
import { sql as fragment } from 'kysely';
import type { CaseRecord, JurorSignature, Verdict } from '../../shared/governance/court.ts';
import type { CourtCase } from './entities.ts';
import { iso } from '../../shared/time.ts';

const sovereignActor = (id: string, tag: string) => ({
  actor_id: id,
  kind: 'sovereign' as const,
  tag: tag.trim(),
});

/** A case as loadCases selects it, with the triage it contests and its opener's tag. */
type CaseRow = Pick<
  RowOf<typeof CourtCase>,
  | 'id'
  | 'sequence'
  | 'opener_id'
  | 'reason'
  | 'state'
  | 'outcome'
  | 'opened_at'
  | 'receipt_id'
  | 'final_at'
  | 'final_receipt_id'
  | 'precedent_id'
> & {
  triage_action: Row<'steward_actions'>['action'];
  triage_at: Row<'steward_actions'>['at'];
  triage_receipt_id: Row<'steward_actions'>['receipt_id'];
  opener_tag: Row<'sovereigns'>['tag'];
};

/** Cases with their juror signatures. The steward's note and the steward are never selected. */
export async function loadCases(
  sql: Sql,
  where: string,
  params: unknown[],
  limit = 200,
  /** newest opened first unless a caller pages in its own key order (verdictsView) */
  orderBy = 'c.opened_at desc, c.id desc',
): Promise<CaseRecord[]> {
  // Raw: the caller's where clause, with the contested triage and the opener's tag.
  const rows = await sql.query<CaseRow>(
    `select c.id, c.sequence, a.action as triage_action, a.at as triage_at, a.receipt_id as triage_receipt_id,
            c.opener_id, s.tag as opener_tag, c.reason, c.state, c.outcome, c.opened_at, c.receipt_id,
            c.final_at, c.final_receipt_id, c.precedent_id
       from governance_court_cases c
       join steward_actions a on a.id = c.triage_action_id
       join sovereigns s on s.id = c.opener_id
      where ${where} order by ${orderBy} limit ${limit}`,
    params,
  );
  if (!rows.length) return [];
  const ids = fragment<string[]>`${rows.map((r) => r.id)}::text[]`;
  const signatures = await sql.kysely
    .selectFrom('governance_court_signatures as g')
    .innerJoin('sovereigns as s', 's.id', 'g.sovereign_id')
    .select(['g.case_id', 'g.sovereign_id', 's.tag', 'g.verdict', 'g.reason', 'g.at', 'g.receipt_id'])
    .where((eb) => eb('g.case_id', '=', eb.fn.any(ids)))
    .orderBy('g.seq')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    sequence: r.sequence,
    disputed: { action: r.triage_action, decided_at: iso(r.triage_at)!, receipt_id: r.triage_receipt_id },
    opener: sovereignActor(r.opener_id, r.opener_tag),
    reason: r.reason,
    state: r.state,
    outcome: r.outcome,
    opened_at: iso(r.opened_at)!,
    receipt_id: r.receipt_id,
    final_at: iso(r.final_at),
    final_receipt_id: r.final_receipt_id,
    precedent_id: r.precedent_id,
    signatures: signatures
      .filter((g) => g.case_id === r.id)
      .map((g): JurorSignature => ({
        actor: sovereignActor(g.sovereign_id, g.tag),
        verdict: g.verdict,
        reason: g.reason,
        at: iso(g.at)!,
        receipt_id: g.receipt_id,
      })),
  }));
}

export async function finalCases(sql: Sql, outcome?: Verdict, limit = 100): Promise<CaseRecord[]> {
  return outcome
    ? loadCases(sql, `c.state = 'final' and c.outcome = $1`, [outcome], limit)
    : loadCases(sql, `c.state = 'final'`, [], limit);
}
