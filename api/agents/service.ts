/**
 * An agent's stored row and proofs: loading handles, their facts and status projection, checking
 * a continuity proof, and the unknown-handle refusal.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { Refusal } from '../../shared/errors.ts';
import { statusProjection, unknownHandleRefusal, type AgentFacts } from '../../shared/agents/status.ts';
import { matchesHash } from './credentials.ts';
import { coalescer } from '../../shared/coalesce.ts';
import type { Row } from '../db/kysely.ts';
import type { RowOf } from '../db/rows.ts';
import type { Agent } from './entities.ts';

/** An agent's row with its attester's public tag and its proof days (AGENT_COLUMNS). */
export type AgentRow = Pick<
  RowOf<typeof Agent>,
  | 'handle'
  | 'secret_hash'
  | 'level'
  | 'first_seen_at'
  | 'last_seen_at'
  | 'attested_at'
  | 'relay_token_hash'
  | 'imprints_accepted'
  | 'imprints_quarantined'
> & { attested_by_tag: Row<'sovereigns'>['tag'] | null; proof_days: string[] | null };

/** An agent's public facts: its row without the secret and token hashes. */
type StatusRow = Omit<AgentRow, 'secret_hash' | 'relay_token_hash'>;

/** The credentials an agent request may carry: continuity secret (header or field) or relay token. */
export interface AgentProof {
  continuity?: string;
  relayToken?: string;
}

export function proofFrom(request: FastifyRequest, bodyContinuity?: string): AgentProof {
  const header = request.headers['x-civitas-continuity'];
  const authorization = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(rt_[A-Za-z0-9_-]+)$/.exec(authorization)?.[1];
  return { continuity: (Array.isArray(header) ? header[0] : header) ?? bodyContinuity, relayToken: bearer };
}

export const AGENT_COLUMNS = `a.handle, a.secret_hash, a.level, a.first_seen_at, a.last_seen_at, case when s.erased_at is null then s.tag end as attested_by_tag, a.attested_at,
  a.relay_token_hash, a.imprints_accepted, a.imprints_quarantined,
  (select array_agg(to_char(d.day, 'YYYY-MM-DD') order by d.day) from agent_proof_days d where d.handle = a.handle) as proof_days`;
// An attester who was erased is the anonymous member (tag "----", erased_at set): no tag names them,
// so attested_by reads null while the level stays attested (docs/identity.md, agents row).
export const AGENT_FROM = 'from agents a left join sovereigns s on s.id = a.attested_by';

export async function loadAgent(sql: Sql, handle: string, forUpdate = false): Promise<AgentRow | undefined> {
  const [row] = await sql.query<AgentRow>(
    `select ${AGENT_COLUMNS} ${AGENT_FROM} where a.handle = $1 ${forUpdate ? 'for update of a' : ''}`,
    [handle],
  );
  return row;
}

export function factsOf(row: StatusRow): AgentFacts {
  return {
    handle: row.handle,
    level: row.level,
    firstSeenAt: new Date(row.first_seen_at),
    lastSeenAt: new Date(row.last_seen_at),
    proofDays: row.proof_days ?? [],
    imprintsAccepted: row.imprints_accepted,
    imprintsQuarantined: row.imprints_quarantined,
    attestedByTag: row.attested_by_tag,
    attestedAt: row.attested_at ? new Date(row.attested_at) : null,
  };
}

/** What the status projection reads: the public facts only, no secret or token hash. */
const STATUS_COLUMNS = `a.handle, a.level, a.first_seen_at, a.last_seen_at, case when s.erased_at is null then s.tag end as attested_by_tag, a.attested_at,
  a.imprints_accepted, a.imprints_quarantined,
  (select array_agg(to_char(d.day, 'YYYY-MM-DD') order by d.day) from agent_proof_days d where d.handle = a.handle) as proof_days`;
const STATUS_QUERY = `select ${STATUS_COLUMNS} ${AGENT_FROM} where a.handle = $1`;

const statusReads = new WeakMap<AppContext, ReturnType<typeof coalescer<string, StatusRow | undefined>>>();

/**
 * GET /api/agent/{handle}: the status projection, or the unknown-handle refusal. One prepared
 * statement; requests for the same handle that arrive together share one read begun after they
 * arrived (shared/coalesce.ts), so each answer is as fresh as its own read, and nothing is kept.
 */
export async function agentStatus(ctx: AppContext, handle: string) {
  let read = statusReads.get(ctx);
  if (!read) statusReads.set(ctx, (read = coalescer<string, StatusRow | undefined>()));
  const row = await read(
    handle,
    async () => (await ctx.db.query<StatusRow>(STATUS_QUERY, [handle]))[0],
    ctx.db.embedded,
  );
  return row ? statusProjection(factsOf(row), ctx.clock.now()) : unknownHandleRefusal(handle);
}

/**
 * Checks a proof for a known handle without recording anything: the continuity secret, or (for
 * an attested handle) its relay token. Unknown handle → the unknown_agent refusal (404); missing
 * or wrong proof → 401 continuity_proof_invalid.
 */
export async function requireAgentProof(
  sql: Sql,
  handle: string,
  proof: AgentProof,
  forUpdate = false,
): Promise<AgentRow> {
  const row = await loadAgent(sql, handle, forUpdate);
  if (!row) throw unknownAgent(handle);
  const proved = matchesHash(proof.continuity, row.secret_hash);
  const relayed = row.level === 'attested' && matchesHash(proof.relayToken, row.relay_token_hash);
  const presentedWrong =
    (proof.continuity !== undefined && !proved) || (proof.relayToken !== undefined && !relayed);
  if (presentedWrong || (!proved && !relayed)) throw new Refusal('continuity_proof_invalid', { handle });
  return row;
}

/** The unknown-handle refusal as a thrown Refusal (same fields as INTERFACE.md's refusal body). */
export function unknownAgent(handle: string): Refusal {
  const body = unknownHandleRefusal(handle);
  return new Refusal(
    'unknown_agent',
    { found: false, handle, next_actions: body.next_actions, next: body.next },
    body.hint,
  );
}
