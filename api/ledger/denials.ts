import type { Sql } from '../db/database.ts';
import { talliesUnder } from '../db/tallies.ts';
import type { RowOf } from '../db/rows.ts';
import type { Denial, Receipt } from './entities.ts';
import { recordReceipt, type RecordedReceipt } from './receipts.ts';
import { projectDenialReceipt, type DenialReceipt } from '../../shared/boundaries/projectors/actors.ts';
import { publicActorRef, type ActorIdentity } from '../../shared/boundaries/actor-ref.ts';

export interface DenialInput {
  /** what was refused, e.g. `POST /sovereign/order` */
  action: string;
  /** the refusal's reason code, e.g. `scope_required`, `cross_origin_refused`, `continuity_proof_invalid` */
  reason: string;
  /** who was refused, when known; stored privately, published only as a public ref */
  actor: Pick<ActorIdentity, 'actor_id' | 'kind' | 'tag' | 'handle'> | null;
  at: Date;
}

/**
 * Records a refusal that must leave a trace, inside the caller's transaction: a receipt (step
 * `denial.<reason>`, subject the actor's PUBLIC ref or `anonymous` — never a raw id) plus a private
 * row for stewards. Published only through projectDenialReceipt (/api/transparency, /verify/{id}).
 */
export async function recordDenial(tx: Sql, input: DenialInput): Promise<RecordedReceipt> {
  const reason = input.reason.replace(/[^a-z0-9_]/g, '_').slice(0, 60) || 'refused';
  const actorPublic = input.actor
    ? input.actor.kind === 'agent'
      ? (input.actor.handle ?? null)
      : (input.actor.tag ?? null)
    : null;
  const subject = input.actor
    ? publicActorRef({ kind: input.actor.kind, tag: input.actor.tag, handle: input.actor.handle })
    : 'anonymous';
  const receipt = await recordReceipt(tx, { step: `denial.${reason}`, subject, at: input.at });
  await tx.query(
    `insert into denials (receipt_id, denied_action, reason, actor_kind, actor_ref, actor_public, recorded_at) values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      receipt.id,
      input.action.slice(0, 200),
      reason,
      input.actor?.kind ?? null,
      input.actor?.actor_id ?? null,
      actorPublic,
      input.at.toISOString(),
    ],
  );
  return receipt;
}

/** A denial beside its receipt, as DENIAL_QUERY selects it (times as ISO text). */
type DenialRow = Pick<
  RowOf<typeof Denial>,
  'receipt_id' | 'denied_action' | 'reason' | 'actor_kind' | 'actor_ref' | 'actor_public'
> &
  Pick<RowOf<typeof Receipt>, 'step' | 'leaf_hash' | 'leaf_index'> & {
    recorded_at: string;
    log_date: string;
  };

const DENIAL_QUERY = `select d.receipt_id, r.step, d.denied_action, d.reason, d.actor_kind, d.actor_ref, d.actor_public,
    to_char(r.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at, r.leaf_hash,
    to_char(r.log_date, 'YYYY-MM-DD') as log_date, r.leaf_index
  from denials d join receipts r on r.id = d.receipt_id`;

/** denial_receipt boundary: every public denial goes through projectDenialReceipt. */
function project(row: DenialRow): DenialReceipt {
  const view = projectDenialReceipt({
    receipt_id: row.receipt_id,
    step: row.step,
    denied_action: row.denied_action,
    reason: row.reason,
    actor: {
      actor_id: row.actor_ref ?? '',
      kind: row.actor_kind ?? 'sovereign',
      tag: row.actor_kind === 'sovereign' ? row.actor_public : null,
      handle: row.actor_kind === 'agent' ? row.actor_public : null,
    },
    crossing_actor_id: null,
    recorded_at: row.recorded_at,
    leaf_hash: row.leaf_hash,
    log: { date: row.log_date, leaf_index: row.leaf_index },
  });
  return row.actor_kind === null ? { ...view, subject: 'anonymous' } : view;
}

export async function recentDenials(sql: Sql, limit = 20): Promise<DenialReceipt[]> {
  const rows = await sql.query<DenialRow>(`${DENIAL_QUERY} order by r.id desc limit $1`, [limit]);
  return rows.map(project);
}

export async function denialOf(sql: Sql, receiptId: string): Promise<DenialReceipt | null> {
  const [row] = await sql.query<DenialRow>(`${DENIAL_QUERY} where d.receipt_id = $1`, [receiptId]);
  return row ? project(row) : null;
}

/**
 * Denials by reason: the tallies `denials:<reason>` the denials' triggers keep (migration 0084),
 * one row per reason, not a group-by over every denial the Record has traced.
 */
export async function denialCounts(
  sql: Sql,
): Promise<{ total: number; by_reason: { reason: string; count: number }[] }> {
  const by_reason = (await talliesUnder(sql, 'denials:'))
    .filter((kept) => kept.value > 0)
    .map((kept) => ({ reason: kept.key, count: kept.value }));
  return { total: by_reason.reduce((a, r) => a + r.count, 0), by_reason };
}
