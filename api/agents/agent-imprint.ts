/**
 * The agent door of the Record: an agent's imprint, sequenced with the human ones (group commit),
 * with arrivals, proofs and proof days handled for a whole batch at once.
 */
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { sequence } from '../record/sequencer.ts';
import type { Admitted, Door } from '../record/sequencer-doors.ts';
import type { GateVerdict } from '../../shared/record/gate.ts';
import { HOLD_REASONS } from '../../shared/boundaries/projectors/spam.ts';
import { Refusal } from '../../shared/errors.ts';
import { levelFor } from '../../shared/agents/naturalization.ts';
import { utcDay } from '../../shared/time.ts';
import { nextActionsFor, summarizeNext } from '../../shared/agents/status.ts';
import type { ImprintKind } from '../../shared/record/imprint.ts';
import type { agentImprintResultSchema } from '../../shared/agents/contract.ts';
import { matchesHash } from './credentials.ts';
import { factsOf, type AgentProof, type AgentRow } from './service.ts';
import {
  arriveAll,
  arrivedRow,
  insertArrivals,
  lockOrArrive,
  mayArrive,
  type AgentDraft,
} from './arrivals.ts';

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
export async function agentImprint(
  ctx: AppContext,
  input: AgentImprintInput,
  proof: AgentProof,
): Promise<AgentImprintResult> {
  return sequence(ctx.db, agentDoor, {
    authorRef: input.agent,
    body: input.body,
    kind: input.kind,
    replyTo: input.reply_to ?? null,
    at: ctx.clock.now(),
    proof,
  });
}

/** What the lock step learned about a handle: its stored row (none for a new one) and its proof. */
interface AgentState {
  existing: AgentRow | undefined;
  /** The continuity secret of a handle that arrived in the lock step itself (see lockOrArrive). */
  arrived?: string;
  proved: boolean;
  relayed: boolean;
}

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
      const relayed =
        existing.level === 'attested' && matchesHash(draft.proof.relayToken, existing.relay_token_hash);
      const presentedWrong =
        (draft.proof.continuity !== undefined && !proved) ||
        (draft.proof.relayToken !== undefined && !relayed);
      if (presentedWrong || (existing.level === 'attested' && !proved && !relayed)) {
        return new Refusal('continuity_proof_invalid', { handle: draft.authorRef });
      }
      return { existing, proved, relayed };
    });
  },
  mayArrive,
  async arrive(tx, drafts) {
    const secrets = await arriveAll(tx, drafts);
    return secrets.map((arrived) => ({ existing: undefined, arrived, proved: false, relayed: false }));
  },
  fresh: (state) => state.arrived !== undefined,
  async admit(tx, entries) {
    const arrivals = await insertArrivals(
      tx,
      entries.filter((e) => !e.state.existing && !e.state.arrived),
    );
    const settled = entries.map(({ draft, state, verdict }): Settled | Refusal => {
      if (!state.existing) {
        const secret = state.arrived ?? arrivals.get(draft.authorRef);
        // Two first imprints raced: the loser must not get a secret that is not stored.
        if (!secret)
          return new Refusal(
            'conflict',
            {},
            'This handle arrived a moment ago through another request. Read its status and imprint again.',
          );
        return {
          draft,
          verdict,
          secret,
          proved: false,
          unattested: true,
          row: arrivedRow(draft.authorRef, draft.at),
        };
      }
      const attested = state.existing.level === 'attested';
      const unattested = !(attested && (state.proved || state.relayed));
      return {
        draft,
        verdict,
        secret: undefined,
        proved: state.proved,
        unattested,
        row: afterImprint(state, draft.at, unattested || verdict.held),
      };
    });
    const returning = settled.filter((s): s is Settled => !(s instanceof Refusal) && !s.secret);
    const provedDays = returning.filter((s) => s.proved);
    if (provedDays.length > 0) {
      await tx.query(
        'insert into agent_proof_days (handle, day) select * from unnest($1::text[], $2::date[]) on conflict do nothing',
        [provedDays.map((s) => s.draft.authorRef), provedDays.map((s) => utcDay(s.draft.at))],
      );
    }
    if (returning.length > 0) {
      await tx.query(
        `update agents a set last_seen_at = u.at, level = u.level, imprints_accepted = a.imprints_accepted + 1,
                imprints_quarantined = a.imprints_quarantined + u.quarantined
         from unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[]) as u(handle, at, level, quarantined) where a.handle = u.handle`,
        [
          returning.map((s) => s.draft.authorRef),
          returning.map((s) => s.draft.at.toISOString()),
          returning.map((s) => s.row.level),
          returning.map((s) => (s.unattested || s.verdict.held ? 1 : 0)),
        ],
      );
    }
    return settled.map((s) => (s instanceof Refusal ? s : admittedAgentImprint(s)));
  },
};

/** A known handle's row after this imprint: seen now, its proof day counted, its level recomputed. */
function afterImprint(state: AgentState, at: Date, quarantined: boolean): AgentRow {
  const row = state.existing!;
  const days = new Set(row.proof_days ?? []);
  if (state.proved) days.add(utcDay(at));
  const level = levelFor({ attested: row.level === 'attested', proofDays: days.size });
  return {
    ...row,
    level,
    last_seen_at: at.toISOString(),
    proof_days: [...days].sort(),
    imprints_accepted: row.imprints_accepted + 1,
    imprints_quarantined: row.imprints_quarantined + (quarantined ? 1 : 0),
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
