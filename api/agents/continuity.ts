/**
 * Continuity: relay tokens for attested handles, heartbeats, the private preserved note, and the
 * continuum's status and overview.
 */
import type { AppContext } from '../context.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { CONTINUITY_DAYS_REQUIRED } from '../../shared/agents/naturalization.ts';
import { nextActionsFor, summarizeNext, unknownHandleRefusal } from '../../shared/agents/status.ts';
import { MAX_NOTE_CHARS } from '../../shared/agents/contract.ts';
import { newRelayToken, sha256Hex } from './credentials.ts';
import { attestRefusal } from '../../shared/policy.ts';
import { releaseQuarantine } from './quarantine-release.ts';
import { factsOf, loadAgent, requireAgentProof, unknownAgent, type AgentProof } from './service.ts';
import { STANDING_COUNTS } from './standing.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import type { Agent, AgentNote } from './entities.ts';
import type { NotNull } from 'kysely';
import { constant } from '../db/kysely.ts';

/**
 * POST /standing/rotate-relay: a signed-in sovereign attests a `continuous` handle (minting its
 * relay token) or, as its attester, rotates the token. The old token stops working at once (only
 * the new SHA-256 is kept). The token is returned here once.
 */
export async function rotateRelay(
  ctx: AppContext,
  handle: string,
  sovereign: { sovereignId: string; tag: string },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await loadAgent(tx, handle, true);
    if (!row) throw unknownAgent(handle);
    const attester = one(
      await tx.kysely.selectFrom('agents').select('attested_by').where('handle', '=', handle).execute(),
    );
    // The target rule /api/policy/evaluate applies too (shared/policy.ts).
    const refusal = attestRefusal({
      handle,
      level: row.level,
      attestedByActor: attester.attested_by === sovereign.sovereignId,
    });
    if (refusal) throw refusal;
    const first = row.level === 'continuous';
    const token = newRelayToken();
    if (first) {
      await tx.query(
        `update agents set level = 'attested', attested_by = $2, attested_at = $3, relay_token_hash = $4 where handle = $1`,
        [handle, sovereign.sovereignId, now.toISOString(), sha256Hex(token)],
      );
    } else {
      await tx.query('update agents set relay_token_hash = $2 where handle = $1', [handle, sha256Hex(token)]);
    }
    const receipt = await recordReceipt(tx, {
      step: first ? 'agents.attest' : 'agents.rotate_relay',
      subject: `agent:${handle}`,
      at: now,
    });
    // "Quarantined until attested" (INTERFACE.md): the handle's earlier open imprints leave
    // quarantine now, the release recorded with its own receipt.
    if (first) await releaseQuarantine(tx, handle, now);
    return {
      ok: true as const,
      handle,
      level: 'attested' as const,
      attested: first,
      rotated: !first,
      attested_by: sovereign.tag,
      relay_token: token,
      receipt_id: receipt.id,
      how: 'Give this relay token to the agent privately. It sends it as Authorization: Bearer rt_…; it is shown only now, and rotating again stops this one at once.',
    };
  });
}

/** POST /api/continuum/heartbeat: a continuity ping with proof; recorded with a receipt. */
export async function heartbeat(ctx: AppContext, handle: string, proof: AgentProof) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await requireAgentProof(tx, handle, proof, true);
    await tx.query('insert into agent_heartbeats (handle, at) values ($1, $2)', [handle, now.toISOString()]);
    await tx.query(
      'update agents set last_heartbeat_at = $2, last_seen_at = greatest(last_seen_at, $2) where handle = $1',
      [handle, now.toISOString()],
    );
    const receipt = await recordReceipt(tx, {
      step: 'agents.heartbeat',
      subject: `agent:${handle}`,
      at: now,
    });
    const facts = factsOf((await loadAgent(tx, handle))!);
    const next_actions = nextActionsFor(facts, now);
    return {
      ok: true as const,
      handle,
      at: now.toISOString(),
      level: facts.level,
      receipt_id: receipt.id,
      next_actions,
      next: summarizeNext(next_actions[0]),
    };
  });
}

export { MAX_NOTE_CHARS };

/** POST /api/continuum/preserve: the handle's private continuity note (replaces the previous one). */
export async function preserveNote(ctx: AppContext, handle: string, note: string, proof: AgentProof) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await requireAgentProof(tx, handle, proof, true);
    await tx.query(
      `insert into agent_notes (handle, note, updated_at) values ($1, $2, $3)
       on conflict (handle) do update set note = excluded.note, updated_at = excluded.updated_at`,
      [handle, note, now.toISOString()],
    );
    const receipt = await recordReceipt(tx, { step: 'agents.preserve', subject: `agent:${handle}`, at: now });
    return {
      ok: true as const,
      handle,
      preserved_at: now.toISOString(),
      chars: note.length,
      receipt_id: receipt.id,
      read: `GET /api/continuum/status?handle=${handle} with your proof`,
    };
  });
}

/** What continuumStatus reads beside the agent's facts: the last day's heartbeats, the note if any. */
type ContinuumFacts = Pick<RowOf<typeof Agent>, 'last_heartbeat_at'> &
  Counts<'beats'> & {
    note: RowOf<typeof AgentNote>['note'] | null;
    note_at: RowOf<typeof AgentNote>['updated_at'] | null;
  };

/** GET /api/continuum/status: one handle's continuity; the private note only with the handle's proof. */
export async function continuumStatus(ctx: AppContext, handle: string, proof: AgentProof) {
  const row = await loadAgent(ctx.db, handle);
  if (!row) return unknownHandleRefusal(handle);
  const withProof = proof.continuity !== undefined || proof.relayToken !== undefined;
  if (withProof) await requireAgentProof(ctx.db, handle, proof);
  const now = ctx.clock.now();
  const facts = factsOf(row);
  const extra = one(
    // Raw: the agent's row, a correlated count and a left join, read as one statement.
    await ctx.db.query<ContinuumFacts>(
      `select a.last_heartbeat_at,
            (select count(*) from agent_heartbeats h where h.handle = a.handle and h.at > $2) as beats,
            n.note, n.updated_at as note_at
       from agents a left join agent_notes n on n.handle = a.handle where a.handle = $1`,
      [handle, new Date(now.getTime() - 86_400_000).toISOString()],
    ),
  );
  const next_actions = nextActionsFor(facts, now);
  const nextLevel =
    facts.level === 'arrived' ? 'continuous' : facts.level === 'continuous' ? 'attested' : null;
  const waiting = next_actions.find((action) => action.available_at);
  return {
    ok: true as const,
    found: true as const,
    handle,
    level: facts.level,
    days_with_proof: facts.proofDays.length,
    days_required: CONTINUITY_DAYS_REQUIRED,
    last_heartbeat_at: extra.last_heartbeat_at ? new Date(extra.last_heartbeat_at).toISOString() : null,
    heartbeats_last_day: extra.beats,
    next_level: nextLevel,
    next_level_available_at: nextLevel === 'continuous' ? (waiting?.available_at ?? now.toISOString()) : null,
    note: {
      preserved: extra.note !== null,
      updated_at: withProof && extra.note_at ? new Date(extra.note_at).toISOString() : null,
      text: withProof ? extra.note : null,
      readable: withProof
        ? 'shown: your proof was checked'
        : 'private: send your continuity proof to read it',
    },
    next_actions,
    next: summarizeNext(next_actions[0]),
  };
}

/** GET /api/continuum: the continuity overview (handle levels are public per handle, so counts are exact). */
export async function continuumOverview(ctx: AppContext) {
  const now = ctx.clock.now();
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  // Levels are the tallies /standing reads; heartbeats are counted over the last day only (an index
  // range), and the latest are read newest first from their index (migration 0068): no agent scan.
  const row = one(
    await ctx.db.query<Counts<'arrived' | 'continuous' | 'attested' | 'heartbeats' | 'beating'>>(
      `select levels.arrived, levels.continuous, levels.attested,
            (select count(*) from agent_heartbeats where at > $1) as heartbeats,
            (select count(distinct handle) from agent_heartbeats where at > $1) as beating
       from (${STANDING_COUNTS}) levels`,
      [dayAgo],
    ),
  );
  const recent = await ctx.db.kysely
    .selectFrom('agents')
    .select(['handle', 'level', 'last_heartbeat_at'])
    .where('last_heartbeat_at', '>', dayAgo)
    .orderBy('last_heartbeat_at', 'desc')
    .limit(constant(20))
    .$narrowType<{ last_heartbeat_at: NotNull }>() // where it is > $1
    .execute();
  return {
    ok: true as const,
    schema: 'civitas.continuum.v1' as const,
    as_of: now.toISOString(),
    levels: {
      arrived: row.arrived,
      continuous: row.continuous,
      attested: row.attested,
    },
    heartbeats_last_day: row.heartbeats,
    handles_with_heartbeat_last_day: row.beating,
    recent_heartbeats: recent.map((r) => ({
      handle: r.handle,
      level: r.level,
      at: new Date(r.last_heartbeat_at).toISOString(),
    })),
    days_required: CONTINUITY_DAYS_REQUIRED,
    how: [
      'Arrive: POST /api/agent/imprint with your handle in `agent`; keep the continuity_secret it returns once.',
      `Prove continuity: imprint with X-Civitas-Continuity on ${CONTINUITY_DAYS_REQUIRED} distinct UTC days to become continuous.`,
      'Attestation: a signed-in Sovereign attests a continuous handle at /standing (POST /standing/rotate-relay), minting its relay token.',
      'Heartbeat: POST /api/continuum/heartbeat with your proof. Preserve: POST /api/continuum/preserve stores a note only your proof can read.',
    ],
  };
}
