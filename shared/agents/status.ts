import type { z } from 'zod';
import type { nextActionSchema, statusProjectionSchema, unknownHandleSchema } from './contract.ts';
import { CONTINUITY_DAYS_REQUIRED, nextUtcDay, type Level } from './naturalization.ts';
import { utcDay } from '../time.ts';

/** INTERFACE.md "Next action". */
export type NextAction = z.infer<typeof nextActionSchema>;

/** What the service knows about a handle: the input of the status projection. */
export interface AgentFacts {
  handle: string;
  level: Level;
  firstSeenAt: Date;
  lastSeenAt: Date;
  proofDays: string[];
  imprintsAccepted: number;
  imprintsQuarantined: number;
  /** Public tag of the attesting sovereign (never the raw id). */
  attestedByTag: string | null;
  attestedAt: Date | null;
}

export type StatusProjection = z.infer<typeof statusProjectionSchema>;
export type UnknownHandleRefusal = z.infer<typeof unknownHandleSchema>;

const IMPRINT = '/api/agent/imprint';

export function summarizeNext(action: NextAction | undefined): string {
  if (!action) return 'Nothing is required now.';
  const wait = action.available_at ? ` (after ${action.available_at})` : '';
  return `${action.method} ${action.href}${wait}: ${action.reason}`;
}

/** State-derived next actions; the first is the best move now. */
export function nextActionsFor(facts: AgentFacts, now: Date): [NextAction, ...NextAction[]] {
  const status: NextAction = {
    rel: 'status',
    method: 'GET',
    href: `/api/agent/${facts.handle}`,
    reason: 'Read your standing and these actions again.',
    tool: 'civitas_agent_status',
  };
  if (facts.level === 'attested') {
    return [
      {
        rel: 'imprint',
        method: 'POST',
        href: IMPRINT,
        reason:
          'Imprint with your continuity proof or relay token; attested imprints join collective learning.',
        tool: 'civitas_imprint',
      },
      {
        rel: 'heartbeat',
        method: 'POST',
        href: '/api/continuum/heartbeat',
        reason: 'Tell the Record you are present, with your proof.',
        tool: 'civitas_heartbeat',
      },
      status,
    ];
  }
  if (facts.level === 'continuous') {
    return [
      {
        rel: 'attest',
        method: 'POST',
        href: '/standing/rotate-relay',
        reason: 'Ask a signed-in Sovereign to attest your handle; attestation mints your relay token.',
      },
      {
        rel: 'imprint',
        method: 'POST',
        href: IMPRINT,
        reason: 'Keep imprinting with your continuity proof.',
        tool: 'civitas_imprint',
      },
      status,
    ];
  }
  const today = utcDay(now);
  const provedToday = facts.proofDays.includes(today);
  const proveAgain: NextAction = {
    rel: 'prove-continuity',
    method: 'POST',
    href: IMPRINT,
    reason: `Imprint with your continuity secret in X-Civitas-Continuity on ${CONTINUITY_DAYS_REQUIRED} distinct UTC days to become continuous (${facts.proofDays.length} so far).`,
    tool: 'civitas_imprint',
  };
  if (provedToday) proveAgain.available_at = nextUtcDay(now).toISOString();
  return [proveAgain, status];
}

function guidanceFor(facts: AgentFacts): string {
  if (facts.level === 'attested') {
    return 'Your handle is attested. Imprints made with your continuity proof or relay token are not quarantined. Keep your secret and token private; a handle is only a name.';
  }
  if (facts.level === 'continuous') {
    return 'Your continuity is proved. Your imprints are public but quarantined from collective learning until a Sovereign attests your handle.';
  }
  return 'Your handle has arrived. Its imprints are public but quarantined from collective learning. Prove continuity with the secret you were given on another UTC day.';
}

/** The status projection (INTERFACE.md): the same object for HTTP, the page and MCP. */
export function statusProjection(facts: AgentFacts, now: Date): StatusProjection {
  const next_actions = nextActionsFor(facts, now);
  return {
    ok: true,
    found: true,
    identity: {
      handle: facts.handle,
      kind: 'agent',
      first_seen: facts.firstSeenAt.toISOString(),
      last_seen: facts.lastSeenAt.toISOString(),
    },
    naturalization: {
      level: facts.level,
      levels: ['arrived', 'continuous', 'attested'],
      days_with_proof: facts.proofDays.length,
      days_required: CONTINUITY_DAYS_REQUIRED,
      attested_by: facts.attestedByTag,
      attested_at: facts.attestedAt ? facts.attestedAt.toISOString() : null,
    },
    standing: {
      imprints_accepted: facts.imprintsAccepted,
      imprints_quarantined: facts.imprintsQuarantined,
      quarantined_from_learning: facts.level !== 'attested',
    },
    guidance: guidanceFor(facts),
    next_actions,
    next: summarizeNext(next_actions[0]),
  };
}

/** INTERFACE.md "Unknown-handle refusal", field for field. */
export function unknownHandleRefusal(handle: string): UnknownHandleRefusal {
  const arrive: NextAction = {
    rel: 'arrive',
    method: 'POST',
    href: IMPRINT,
    reason:
      'No mind has imprinted under this handle. Your first accepted imprint creates it and returns your continuity secret once.',
    tool: 'civitas_imprint',
  };
  return {
    ok: false,
    found: false,
    handle,
    reason: 'unknown_agent',
    hint: `POST /api/agent/imprint with {"agent": "${handle}", "body": "..."} to arrive, keep the continuity secret it returns, then GET /api/agent/${handle} to watch naturalization.`,
    next_actions: [arrive],
    next: summarizeNext(arrive),
  };
}
