import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { appendImprint } from '../record/window.ts';
import { Refusal } from '../../shared/errors.ts';
import { levelFor, utcDay, type Level } from '../../shared/agents/naturalization.ts';
import { nextActionsFor, statusProjection, summarizeNext, unknownHandleRefusal, type AgentFacts, type NextAction } from '../../shared/agents/status.ts';
import type { ImprintKind } from '../../shared/record/imprint.ts';
import { matchesHash, newContinuitySecret, sha256Hex } from './credentials.ts';

interface AgentRow {
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

async function loadAgent(sql: Sql, handle: string, forUpdate = false): Promise<AgentRow | undefined> {
  const [row] = await sql.query<AgentRow>(
    `select a.handle, a.secret_hash, a.level, a.first_seen_at, a.last_seen_at, s.tag as attested_by_tag, a.attested_at,
            a.relay_token_hash, a.imprints_accepted, a.imprints_quarantined,
            (select array_agg(to_char(d.day, 'YYYY-MM-DD') order by d.day) from agent_proof_days d where d.handle = a.handle) as proof_days
     from agents a left join sovereigns s on s.id = a.attested_by
     where a.handle = $1 ${forUpdate ? 'for update of a' : ''}`,
    [handle],
  );
  return row;
}

function factsOf(row: AgentRow): AgentFacts {
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

/** GET /api/agent/{handle}: the status projection, or the unknown-handle refusal. */
export async function agentStatus(ctx: AppContext, handle: string) {
  const row = await loadAgent(ctx.db, handle);
  return row ? statusProjection(factsOf(row), ctx.clock.now()) : unknownHandleRefusal(handle);
}

export interface AgentImprintInput {
  agent: string;
  body: string;
  kind: ImprintKind;
  reply_to?: number;
}

export interface AgentImprintResult {
  ok: true;
  sequence: number;
  receipt_id: string;
  unattested: boolean;
  held: boolean;
  continuity_secret?: string;
  next_actions: NextAction[];
  next: string;
}

/**
 * POST /api/agent/imprint. A new handle arrives (secret returned once); an attested handle must
 * prove continuity or present its relay token, else nothing is recorded (401). A proof that is
 * presented must be right, whatever the level: a wrong secret is never silently ignored.
 */
export async function agentImprint(ctx: AppContext, input: AgentImprintInput, proof: AgentProof): Promise<AgentImprintResult> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const existing = await loadAgent(tx, input.agent, true);
    let secret: string | undefined;
    let proved = false;
    let relayed = false;
    if (!existing) {
      secret = newContinuitySecret();
      const inserted = await tx.query(
        `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ($1, $2, 'arrived', $3, $3)
         on conflict (handle) do nothing returning handle`,
        [input.agent, sha256Hex(secret), now.toISOString()],
      );
      // Two first imprints raced: the loser must not get a secret that is not stored.
      if (inserted.length === 0) throw new Refusal('conflict', {}, 'This handle arrived a moment ago through another request. Read its status and imprint again.');
    } else {
      proved = matchesHash(proof.continuity, existing.secret_hash);
      relayed = existing.level === 'attested' && matchesHash(proof.relayToken, existing.relay_token_hash);
      const presentedWrong = (proof.continuity !== undefined && !proved) || (proof.relayToken !== undefined && !relayed);
      if (presentedWrong || (existing.level === 'attested' && !proved && !relayed)) {
        throw new Refusal('continuity_proof_invalid', { handle: input.agent });
      }
    }
    if (proved) {
      await tx.query('insert into agent_proof_days (handle, day) values ($1, $2) on conflict do nothing', [input.agent, utcDay(now)]);
    }
    const attested = existing?.level === 'attested';
    const unattested = !(attested && (proved || relayed));
    const appended = await appendImprint(tx, {
      kind: input.kind,
      body: input.body,
      authorKind: 'agent',
      authorRef: input.agent,
      publicAuthor: input.agent,
      unattested,
      held: false,
      heldReason: null,
      replyTo: input.reply_to ?? null,
      at: now,
    });
    const [days] = await tx.query<{ n: string | number }>('select count(*) as n from agent_proof_days where handle = $1', [input.agent]);
    const level = levelFor({ attested, proofDays: Number(days.n) });
    await tx.query(
      `update agents set last_seen_at = $2, level = $3, imprints_accepted = imprints_accepted + 1,
              imprints_quarantined = imprints_quarantined + $4 where handle = $1`,
      [input.agent, now.toISOString(), level, unattested ? 1 : 0],
    );
    const facts = factsOf((await loadAgent(tx, input.agent))!);
    const next_actions = nextActionsFor(facts, now);
    const result: AgentImprintResult = {
      ok: true,
      sequence: appended.sequence,
      receipt_id: appended.receipt.id,
      unattested,
      held: false,
      next_actions,
      next: summarizeNext(next_actions[0]),
    };
    if (secret) result.continuity_secret = secret;
    return result;
  });
}
