import type { FastifyRequest } from 'fastify';
import type { ImprintResult } from '../record/service.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { sequence, type Admitted, type Door, type Draft } from '../record/sequencer.ts';
import type { GateVerdict } from '../../shared/record/gate.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { HOLD_REASONS } from '../../shared/boundaries/projectors/spam.ts';
import { Refusal } from '../../shared/errors.ts';
import { CONTINUITY_DAYS_REQUIRED, levelFor, type Level } from '../../shared/agents/naturalization.ts';
import { utcDay } from '../../shared/time.ts';
import { nextActionsFor, statusProjection, summarizeNext, unknownHandleRefusal, type AgentFacts, type NextAction } from '../../shared/agents/status.ts';
import type { ImprintKind } from '../../shared/record/imprint.ts';
import { MAX_NOTE_CHARS, type agentImprintResultSchema } from '../../shared/agents/contract.ts';
import type { z } from 'zod';
import { matchesHash, newContinuitySecret, newRelayToken, sha256Hex } from './credentials.ts';
import { attestRefusal } from '../../shared/policy.ts';
import { coalescer } from '../../shared/coalesce.ts';

export interface AgentRow {
  handle: string;
  secret_hash: string;
  level: Level;
  first_seen_at: Date | string;
  last_seen_at: Date | string;
  attested_by_tag: string | null;
  attested_at: Date | string | null;
  relay_token_hash: string | null;
  imprints_accepted: number;
  imprints_quarantined: number;
  proof_days: string[] | null;
}

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

const AGENT_COLUMNS = `a.handle, a.secret_hash, a.level, a.first_seen_at, a.last_seen_at, s.tag as attested_by_tag, a.attested_at,
  a.relay_token_hash, a.imprints_accepted, a.imprints_quarantined,
  (select array_agg(to_char(d.day, 'YYYY-MM-DD') order by d.day) from agent_proof_days d where d.handle = a.handle) as proof_days`;
const AGENT_FROM = 'from agents a left join sovereigns s on s.id = a.attested_by';

export async function loadAgent(sql: Sql, handle: string, forUpdate = false): Promise<AgentRow | undefined> {
  const [row] = await sql.query<AgentRow>(`select ${AGENT_COLUMNS} ${AGENT_FROM} where a.handle = $1 ${forUpdate ? 'for update of a' : ''}`, [handle]);
  return row;
}

export function factsOf(row: StatusRow): AgentFacts {
  return {
    handle: row.handle,
    level: row.level,
    firstSeenAt: new Date(row.first_seen_at),
    lastSeenAt: new Date(row.last_seen_at),
    proofDays: row.proof_days ?? [],
    imprintsAccepted: Number(row.imprints_accepted),
    imprintsQuarantined: Number(row.imprints_quarantined),
    attestedByTag: row.attested_by_tag,
    attestedAt: row.attested_at ? new Date(row.attested_at) : null,
  };
}

/** What the status projection reads: the public facts only, no secret or token hash. */
const STATUS_COLUMNS = `a.handle, a.level, a.first_seen_at, a.last_seen_at, s.tag as attested_by_tag, a.attested_at,
  a.imprints_accepted, a.imprints_quarantined,
  (select array_agg(to_char(d.day, 'YYYY-MM-DD') order by d.day) from agent_proof_days d where d.handle = a.handle) as proof_days`;
const STATUS_QUERY = `select ${STATUS_COLUMNS} ${AGENT_FROM} where a.handle = $1`;

const statusReads = new WeakMap<AppContext, (handle: string, run: () => Promise<StatusRow | undefined>) => Promise<StatusRow | undefined>>();

/**
 * GET /api/agent/{handle}: the status projection, or the unknown-handle refusal. One prepared
 * statement; requests for the same handle that arrive together share one read begun after they
 * arrived (shared/coalesce.ts), so each answer is as fresh as its own read, and nothing is kept.
 */
export async function agentStatus(ctx: AppContext, handle: string) {
  let read = statusReads.get(ctx);
  if (!read) statusReads.set(ctx, (read = coalescer<string, StatusRow | undefined>()));
  const row = await read(handle, async () => (await ctx.db.query<StatusRow>(STATUS_QUERY, [handle]))[0]);
  return row ? statusProjection(factsOf(row), ctx.clock.now()) : unknownHandleRefusal(handle);
}

export interface AgentImprintInput {
  agent: string;
  body: string;
  kind: ImprintKind;
  reply_to?: number;
}

/** A human imprint's answer, plus what an agent needs: its secret once, and what to do next. */
export type AgentImprintResult = z.infer<typeof agentImprintResultSchema>;

/**
 * POST /api/agent/imprint. A new handle arrives (secret returned once); an attested handle must
 * prove continuity or present its relay token, else nothing is recorded (401). A proof that is
 * presented must be right, whatever the level: a wrong secret is never silently ignored.
 * Recorded through the Record's sequencer (group commit), with the agent door below.
 */
export async function agentImprint(ctx: AppContext, input: AgentImprintInput, proof: AgentProof): Promise<AgentImprintResult> {
  return sequence(ctx.db, agentDoor, {
    authorRef: input.agent,
    body: input.body,
    kind: input.kind,
    replyTo: input.reply_to ?? null,
    at: ctx.clock.now(),
    proof,
  });
}

interface AgentDraft extends Draft {
  kind: ImprintKind;
  proof: AgentProof;
}

/** What the lock step learned about a handle: its stored row (none for a new one) and its proof. */
interface AgentState {
  existing: AgentRow | undefined;
  /** The continuity secret of a handle that arrived in the lock step itself (see lockOrArrive). */
  arrived?: string;
  proved: boolean;
  relayed: boolean;
}

/** Handles are locked (and new ones inserted) in sorted order, so concurrent batches never deadlock on them. */
const byHandle = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The agent door of the sequencer: the agents' rows, proofs and proof days, for a whole batch at once. */
const agentDoor: Door<AgentDraft, AgentState, AgentImprintResult> = {
  async lock(tx, drafts) {
    const { rows, arrived } = await lockOrArrive(tx, drafts);
    return drafts.map((draft) => {
      const secret = arrived.get(draft.authorRef);
      if (secret) return { existing: undefined, arrived: secret, proved: false, relayed: false };
      const existing = rows.get(draft.authorRef);
      if (!existing) return { existing, proved: false, relayed: false };
      const proved = matchesHash(draft.proof.continuity, existing.secret_hash);
      const relayed = existing.level === 'attested' && matchesHash(draft.proof.relayToken, existing.relay_token_hash);
      const presentedWrong = (draft.proof.continuity !== undefined && !proved) || (draft.proof.relayToken !== undefined && !relayed);
      if (presentedWrong || (existing.level === 'attested' && !proved && !relayed)) {
        return new Refusal('continuity_proof_invalid', { handle: draft.authorRef });
      }
      return { existing, proved, relayed };
    });
  },
  async admit(tx, entries) {
    const arrivals = await insertArrivals(tx, entries.filter((e) => !e.state.existing && !e.state.arrived).map((e) => e.draft));
    const settled = entries.map(({ draft, state, verdict }): Settled | Refusal => {
      if (!state.existing) {
        const secret = state.arrived ?? arrivals.get(draft.authorRef);
        // Two first imprints raced: the loser must not get a secret that is not stored.
        if (!secret) return new Refusal('conflict', {}, 'This handle arrived a moment ago through another request. Read its status and imprint again.');
        return { draft, verdict, secret, proved: false, unattested: true, row: arrivedRow(draft.authorRef, draft.at) };
      }
      const attested = state.existing.level === 'attested';
      const unattested = !(attested && (state.proved || state.relayed));
      return { draft, verdict, secret: undefined, proved: state.proved, unattested, row: afterImprint(state, draft.at, unattested || verdict.held) };
    });
    const returning = settled.filter((s): s is Settled => !(s instanceof Refusal) && !s.secret);
    const provedDays = returning.filter((s) => s.proved);
    if (provedDays.length > 0) {
      await tx.query('insert into agent_proof_days (handle, day) select * from unnest($1::text[], $2::date[]) on conflict do nothing', [
        provedDays.map((s) => s.draft.authorRef), provedDays.map((s) => utcDay(s.draft.at)),
      ]);
    }
    if (returning.length > 0) {
      await tx.query(
        `update agents a set last_seen_at = u.at, level = u.level, imprints_accepted = a.imprints_accepted + 1,
                imprints_quarantined = a.imprints_quarantined + u.quarantined
         from unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[]) as u(handle, at, level, quarantined) where a.handle = u.handle`,
        [returning.map((s) => s.draft.authorRef), returning.map((s) => s.draft.at.toISOString()), returning.map((s) => s.row.level),
          returning.map((s) => (s.unattested || s.verdict.held ? 1 : 0))],
      );
    }
    return settled.map((s) => (s instanceof Refusal ? s : admittedAgentImprint(s)));
  },
};

const ARRIVAL_ROWS = `select handle, secret_hash, 'arrived', at, at, 1, 1
  from unnest($2::text[], $3::text[], $4::timestamptz[]) with ordinality as n(handle, secret_hash, at, i) order by i`;

/**
 * The lock step in one round trip: the batch's known handles locked `for update` (sorted), and
 * the handles not yet known inserted in the same statement — only for drafts that nothing after
 * the lock step can refuse (no `reply_to`: its target is checked later; the gate holds, never
 * refuses), so no handle arrives without its imprint. The lock reads the statement's snapshot,
 * which does not show the rows it inserts; a handle first imprinted by another transaction at the
 * same moment is in neither set, and admit refuses it with `conflict` as before.
 */
async function lockOrArrive(tx: Sql, drafts: AgentDraft[]): Promise<{ rows: Map<string, AgentRow>; arrived: Map<string, string> }> {
  const early = drafts.filter((d) => d.replyTo === null).sort((a, b) => byHandle(a.authorRef, b.authorRef));
  const secrets = new Map(early.map((d) => [d.authorRef, newContinuitySecret()]));
  const rows = await tx.query<AgentRow & { arrived: boolean }>(
    `with arrived as (
       insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at, imprints_accepted, imprints_quarantined)
       ${ARRIVAL_ROWS}
       on conflict (handle) do nothing returning handle),
     locked as materialized (select ${AGENT_COLUMNS} ${AGENT_FROM} where a.handle = any($1::text[]) order by a.handle collate "C" for update of a)
     select l.*, false as arrived from locked l
     union all
     select handle, null, null, null, null, null, null, null, null, null, null, true from arrived`,
    [drafts.map((d) => d.authorRef).sort(byHandle), early.map((d) => d.authorRef), early.map((d) => sha256Hex(secrets.get(d.authorRef)!)),
      early.map((d) => d.at.toISOString())],
  );
  const arrived = new Map(rows.filter((row) => row.arrived).map((row) => [row.handle, secrets.get(row.handle)!]));
  return { rows: new Map(rows.filter((row) => !row.arrived).map((row) => [row.handle, row])), arrived };
}

/** Inserts the first rows of new handles (already counting this imprint); returns the secret of each one stored. */
async function insertArrivals(tx: Sql, drafts: AgentDraft[]): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  if (drafts.length === 0) return secrets;
  const sorted = [...drafts].sort((a, b) => byHandle(a.authorRef, b.authorRef));
  for (const draft of sorted) secrets.set(draft.authorRef, newContinuitySecret());
  const inserted = await tx.query<{ handle: string }>(
    `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at, imprints_accepted, imprints_quarantined)
     select handle, secret_hash, 'arrived', at, at, 1, 1 from unnest($1::text[], $2::text[], $3::timestamptz[]) with ordinality as n(handle, secret_hash, at, i)
     order by i
     on conflict (handle) do nothing returning handle`,
    [sorted.map((d) => d.authorRef), sorted.map((d) => sha256Hex(secrets.get(d.authorRef)!)), sorted.map((d) => d.at.toISOString())],
  );
  const stored = new Set(inserted.map((row) => row.handle));
  return new Map([...secrets].filter(([handle]) => stored.has(handle)));
}

/** A new handle's row as inserted: arrived, this one imprint, quarantined (an arrival is unattested). */
function arrivedRow(handle: string, at: Date): AgentRow {
  return {
    handle, secret_hash: '', level: 'arrived', first_seen_at: at, last_seen_at: at, attested_by_tag: null, attested_at: null,
    relay_token_hash: null, imprints_accepted: 1, imprints_quarantined: 1, proof_days: [],
  };
}

/** A known handle's row after this imprint: seen now, its proof day counted, its level recomputed. */
function afterImprint(state: AgentState, at: Date, quarantined: boolean): AgentRow {
  const row = state.existing!;
  const days = new Set(row.proof_days ?? []);
  if (state.proved) days.add(utcDay(at));
  const level = levelFor({ attested: row.level === 'attested', proofDays: days.size });
  return {
    ...row, level, last_seen_at: at, proof_days: [...days].sort(),
    imprints_accepted: Number(row.imprints_accepted) + 1, imprints_quarantined: Number(row.imprints_quarantined) + (quarantined ? 1 : 0),
  };
}

/** An agent imprint the door accepted: its row after this imprint, and the secret of a new handle. */
interface Settled {
  draft: AgentDraft;
  verdict: GateVerdict;
  secret: string | undefined;
  proved: boolean;
  unattested: boolean;
  row: AgentRow;
}

function admittedAgentImprint(s: Settled): Admitted<AgentImprintResult> {
  const { draft, verdict, secret, unattested } = s;
  return {
    imprint: {
      kind: draft.kind,
      body: draft.body,
      authorKind: 'agent',
      authorRef: draft.authorRef,
      publicAuthor: draft.authorRef,
      unattested,
      held: verdict.held,
      heldReason: verdict.held ? verdict.rule : null,
      replyTo: draft.replyTo,
      at: draft.at,
    },
    answer(appended) {
      const next_actions = nextActionsFor(factsOf(s.row), draft.at);
      return {
        ok: true,
        sequence: appended.sequence,
        receipt_id: appended.receipt.id,
        unattested,
        held: verdict.held,
        ...(verdict.held ? { held_reason: HOLD_REASONS[verdict.rule] } : {}),
        ...(secret ? { continuity_secret: secret } : {}),
        next_actions,
        next: summarizeNext(next_actions[0]),
      };
    },
  };
}

/**
 * Checks a proof for a known handle without recording anything: the continuity secret, or (for
 * an attested handle) its relay token. Unknown handle → the unknown_agent refusal (404); missing
 * or wrong proof → 401 continuity_proof_invalid.
 */
export async function requireAgentProof(sql: Sql, handle: string, proof: AgentProof, forUpdate = false): Promise<AgentRow> {
  const row = await loadAgent(sql, handle, forUpdate);
  if (!row) throw unknownAgent(handle);
  const proved = matchesHash(proof.continuity, row.secret_hash);
  const relayed = row.level === 'attested' && matchesHash(proof.relayToken, row.relay_token_hash);
  const presentedWrong = (proof.continuity !== undefined && !proved) || (proof.relayToken !== undefined && !relayed);
  if (presentedWrong || (!proved && !relayed)) throw new Refusal('continuity_proof_invalid', { handle });
  return row;
}

/**
 * POST /standing/rotate-relay: a signed-in sovereign attests a `continuous` handle (minting its
 * relay token) or, as its attester, rotates the token. The old token stops working at once (only
 * the new SHA-256 is kept). The token is returned here once.
 */
export async function rotateRelay(ctx: AppContext, handle: string, sovereign: { sovereignId: string; tag: string }) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await loadAgent(tx, handle, true);
    if (!row) throw unknownAgent(handle);
    const [attester] = await tx.query<{ attested_by: string | null }>('select attested_by from agents where handle = $1', [handle]);
    // The target rule /api/policy/evaluate applies too (shared/policy.ts).
    const refusal = attestRefusal({ handle, level: row.level, attestedByActor: attester.attested_by === sovereign.sovereignId });
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
    const receipt = await recordReceipt(tx, { step: first ? 'agents.attest' : 'agents.rotate_relay', subject: `agent:${handle}`, at: now });
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
    await tx.query('update agents set last_heartbeat_at = $2, last_seen_at = greatest(last_seen_at, $2) where handle = $1', [handle, now.toISOString()]);
    const receipt = await recordReceipt(tx, { step: 'agents.heartbeat', subject: `agent:${handle}`, at: now });
    const facts = factsOf((await loadAgent(tx, handle))!);
    const next_actions = nextActionsFor(facts, now);
    return { ok: true as const, handle, at: now.toISOString(), level: facts.level, receipt_id: receipt.id, next_actions, next: summarizeNext(next_actions[0]) };
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
    return { ok: true as const, handle, preserved_at: now.toISOString(), chars: note.length, receipt_id: receipt.id, read: `GET /api/continuum/status?handle=${handle} with your proof` };
  });
}

/** GET /api/continuum/status: one handle's continuity; the private note only with the handle's proof. */
export async function continuumStatus(ctx: AppContext, handle: string, proof: AgentProof) {
  const row = await loadAgent(ctx.db, handle);
  if (!row) return unknownHandleRefusal(handle);
  const withProof = proof.continuity !== undefined || proof.relayToken !== undefined;
  if (withProof) await requireAgentProof(ctx.db, handle, proof);
  const now = ctx.clock.now();
  const facts = factsOf(row);
  const [extra] = await ctx.db.query<{ last_heartbeat_at: Date | string | null; beats: string | number; note: string | null; note_at: Date | string | null }>(
    `select a.last_heartbeat_at,
            (select count(*) from agent_heartbeats h where h.handle = a.handle and h.at > $2) as beats,
            n.note, n.updated_at as note_at
       from agents a left join agent_notes n on n.handle = a.handle where a.handle = $1`,
    [handle, new Date(now.getTime() - 86_400_000).toISOString()],
  );
  const next_actions = nextActionsFor(facts, now);
  const nextLevel = facts.level === 'arrived' ? 'continuous' : facts.level === 'continuous' ? 'attested' : null;
  const waiting = next_actions.find((action) => action.available_at);
  return {
    ok: true as const,
    found: true as const,
    handle,
    level: facts.level,
    days_with_proof: facts.proofDays.length,
    days_required: CONTINUITY_DAYS_REQUIRED,
    last_heartbeat_at: extra.last_heartbeat_at ? new Date(extra.last_heartbeat_at).toISOString() : null,
    heartbeats_last_day: Number(extra.beats),
    next_level: nextLevel,
    next_level_available_at: nextLevel === 'continuous' ? (waiting?.available_at ?? now.toISOString()) : null,
    note: {
      preserved: extra.note !== null,
      updated_at: withProof && extra.note_at ? new Date(extra.note_at).toISOString() : null,
      text: withProof ? extra.note : null,
      readable: withProof ? 'shown: your proof was checked' : 'private: send your continuity proof to read it',
    },
    next_actions,
    next: summarizeNext(next_actions[0]),
  };
}

/** GET /api/continuum: the continuity overview (handle levels are public per handle, so counts are exact). */
export async function continuumOverview(ctx: AppContext) {
  const now = ctx.clock.now();
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  const [row] = await ctx.db.query<Record<string, string | number>>(
    `select count(*) filter (where level = 'arrived') as arrived,
            count(*) filter (where level = 'continuous') as continuous,
            count(*) filter (where level = 'attested') as attested,
            (select count(*) from agent_heartbeats where at > $1) as heartbeats,
            (select count(distinct handle) from agent_heartbeats where at > $1) as beating
       from agents`,
    [dayAgo],
  );
  const recent = await ctx.db.query<{ handle: string; level: Level; last_heartbeat_at: Date | string }>(
    'select handle, level, last_heartbeat_at from agents where last_heartbeat_at > $1 order by last_heartbeat_at desc limit 20',
    [dayAgo],
  );
  return {
    ok: true as const,
    schema: 'civitas.continuum.v1' as const,
    as_of: now.toISOString(),
    levels: { arrived: Number(row.arrived), continuous: Number(row.continuous), attested: Number(row.attested) },
    heartbeats_last_day: Number(row.heartbeats),
    handles_with_heartbeat_last_day: Number(row.beating),
    recent_heartbeats: recent.map((r) => ({ handle: r.handle, level: r.level, at: new Date(r.last_heartbeat_at).toISOString() })),
    days_required: CONTINUITY_DAYS_REQUIRED,
    how: [
      'Arrive: POST /api/agent/imprint with your handle in `agent`; keep the continuity_secret it returns once.',
      `Prove continuity: imprint with X-Civitas-Continuity on ${CONTINUITY_DAYS_REQUIRED} distinct UTC days to become continuous.`,
      'Attestation: a signed-in Sovereign attests a continuous handle at /standing (POST /standing/rotate-relay), minting its relay token.',
      'Heartbeat: POST /api/continuum/heartbeat with your proof. Preserve: POST /api/continuum/preserve stores a note only your proof can read.',
    ],
  };
}

/** The unknown-handle refusal as a thrown Refusal (same fields as INTERFACE.md's refusal body). */
export function unknownAgent(handle: string): Refusal {
  const body = unknownHandleRefusal(handle);
  return new Refusal('unknown_agent', { found: false, handle, next_actions: body.next_actions, next: body.next }, body.hint);
}
