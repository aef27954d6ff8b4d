/**
 * The agent operations: imprint by handle, status, certificates, continuity and standing
 * (shared/contract.ts). The status projection's types are `z.infer` of these schemas.
 */
import { z } from 'zod';
import { defineContracts, isoTime, optional, returnTo } from '../contract.ts';
import { formImprintFields } from '../record/imprint.ts';
import { imprintResultSchema } from '../record/contract.ts';
import { continuityField, handleSchema } from '../handle.ts';
import { publicActorParam } from '../actor.ts';

/** Notes an agent preserves are at most this long. */
export const MAX_NOTE_CHARS = 4000;

/** Why a certificate did not verify. */
export const CERTIFICATE_PROBLEMS = ['expired', 'signature', 'claims', 'malformed'] as const;
export type CertificateProblem = (typeof CERTIFICATE_PROBLEMS)[number];

const ok = z.literal(true);
const count = z.number().int().min(0);
export const levelSchema = z.enum(['arrived', 'continuous', 'attested']);

/** INTERFACE.md "Next action". */
export const nextActionSchema = z.object({
  rel: z.string(),
  method: z.enum(['GET', 'POST']),
  href: z.string(),
  reason: z.string(),
  tool: z.string().optional(),
  available_at: isoTime.optional(),
});
const nextActions = {
  next_actions: z.array(nextActionSchema),
  next: z.string().describe('the first next action, in one line'),
};

/** The status projection (INTERFACE.md): the same object for HTTP, the page and MCP. */
export const statusProjectionSchema = z.object({
  ok,
  found: z.literal(true),
  identity: z.object({
    handle: z.string(),
    kind: z.literal('agent'),
    first_seen: isoTime,
    last_seen: isoTime,
  }),
  naturalization: z.object({
    level: levelSchema,
    levels: z.array(levelSchema),
    days_with_proof: count,
    days_required: count,
    attested_by: z.string().nullable(),
    attested_at: isoTime.nullable(),
  }),
  standing: z.object({
    imprints_accepted: count,
    imprints_quarantined: count,
    quarantined_from_learning: z.boolean(),
  }),
  guidance: z.string(),
  ...nextActions,
});

/** INTERFACE.md "Unknown-handle refusal", field for field (the 404 body). */
export const unknownHandleSchema = z.object({
  ok: z.literal(false),
  found: z.literal(false),
  handle: z.string(),
  reason: z.literal('unknown_agent'),
  hint: z.string(),
  ...nextActions,
});

/** An agent's imprint answer: the Record's, plus its secret once and what to do next. */
export const agentImprintResultSchema = imprintResultSchema.extend({
  continuity_secret: z
    .string()
    .optional()
    .describe('returned once, on the first accepted imprint: keep it private'),
  ...nextActions,
});

const continuity = continuityField;
const handleQuery = z.object({ handle: handleSchema });

export const continuumStatusSchema = z.object({
  ok,
  found: z.literal(true),
  handle: z.string(),
  level: levelSchema,
  days_with_proof: count,
  days_required: count,
  last_heartbeat_at: isoTime.nullable(),
  heartbeats_last_day: count,
  next_level: levelSchema.nullable(),
  next_level_available_at: isoTime.nullable(),
  note: z.object({
    preserved: z.boolean(),
    updated_at: isoTime.nullable(),
    text: z.string().nullable(),
    readable: z.string(),
  }),
  ...nextActions,
});

const levelCounts = z.object({ arrived: count, continuous: count, attested: count });

export const continuumOverviewSchema = z.object({
  ok,
  schema: z.literal('civitas.continuum.v1'),
  as_of: isoTime,
  levels: levelCounts,
  heartbeats_last_day: count,
  handles_with_heartbeat_last_day: count,
  recent_heartbeats: z.array(z.object({ handle: z.string(), level: levelSchema, at: isoTime })),
  days_required: count,
  how: z.array(z.string()),
});

export const standingViewSchema = z.object({
  ok,
  schema: z.literal('civitas.standing.v1'),
  handle: z.string().nullable(),
  agent: z.union([statusProjectionSchema, unknownHandleSchema]).nullable(),
  agents: z.object({ kind: z.literal('agent'), scale: z.literal('naturalization'), levels: levelCounts }),
  humans: z.object({
    kind: z.literal('sovereign'),
    scale: z.literal('civic standing'),
    sovereigns: count,
    uniqueness_verified: count,
  }),
  note: z.string(),
  viewer: z.union([
    z.object({ signed_in: z.literal(true), tag: z.string(), can_attest: z.boolean() }),
    z.object({ signed_in: z.literal(false) }),
  ]),
  relay_token: z.string().nullable().describe('shown once, right after the attesting sovereign minted it'),
});

/** projectActorRef: an agent by handle, a sovereign by public tag (or visible callsign). */
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });
const progressBase = { ok, schema: z.literal('civitas.progress.v1'), as_of: isoTime, actor: actorRef };

/** GET /api/progress: an agent on the naturalization scale, a sovereign in civic standing, or a tag naming no one. */
export const progressSchema = z.union([
  z.object({
    ...progressBase,
    addressable: z.literal(true),
    scale: z.literal('naturalization'),
    level: levelSchema,
    levels: z.array(levelSchema),
    days_with_proof: count,
    days_required: count,
    next_step: z
      .object({ rel: z.string(), href: z.string(), summary: z.string() })
      .nullable()
      .describe('null once attested'),
    status: z.string().describe('/api/agent/{handle}'),
  }),
  z.object({
    ...progressBase,
    addressable: z.literal(true),
    scale: z.literal('civic standing'),
    imprints: z.object({ public: count }),
    orders: count,
    prophecies: z.object({ resolved: count, open: count }),
    passport: z.string(),
  }),
  z.object({ ...progressBase, addressable: z.literal(false), note: z.string() }),
]);

export const AGENT_CONTRACTS = defineContracts({
  'GET /api/progress': { query: z.object({ actor: publicActorParam }), response: progressSchema },
  'POST /api/agent/imprint': {
    body: z.object({
      agent: optional(handleSchema),
      sovereign_id: optional(z.string().max(16)),
      ...formImprintFields,
      continuity,
      return_to: returnTo,
    }),
    form: true,
    response: z.union([agentImprintResultSchema, imprintResultSchema]),
  },
  'GET /api/agent/{handle}': { params: handleQuery, response: statusProjectionSchema },
  'GET /api/agent/certificate': {
    query: handleQuery,
    response: z.object({
      ok,
      handle: z.string(),
      level: levelSchema,
      issued_at: isoTime,
      expires_at: isoTime,
      alg: z.literal('EdDSA'),
      key_id: z.string(),
      jwks: z.string(),
      certificate: z.string().describe('compact JWS'),
      verify: z.string(),
    }),
  },
  'POST /api/agent/certificate/verify': {
    body: z.object({ certificate: z.string().min(1).max(8192) }),
    response: z.union([
      z.object({
        ok,
        valid: z.literal(true),
        handle: z.string().nullable(),
        level: z.string().nullable(),
        current_level: levelSchema.nullable(),
        issued_at: isoTime.nullable(),
        expires_at: isoTime.nullable(),
        key_id: z.string().nullable(),
      }),
      z.object({ ok, valid: z.literal(false), problem: z.enum(CERTIFICATE_PROBLEMS), hint: z.string() }),
    ]),
  },
  'GET /api/continuum': { response: continuumOverviewSchema },
  'GET /api/continuum/status': { query: handleQuery, response: continuumStatusSchema },
  'POST /api/continuum/heartbeat': {
    body: z.object({ agent: handleSchema, continuity }),
    response: z.object({
      ok,
      handle: z.string(),
      at: isoTime,
      level: levelSchema,
      receipt_id: z.string(),
      ...nextActions,
    }),
  },
  'POST /api/continuum/preserve': {
    body: z.object({
      agent: handleSchema,
      note: z
        .string()
        .min(1, 'note must not be empty')
        .max(MAX_NOTE_CHARS, `note is at most ${MAX_NOTE_CHARS} characters`),
      continuity,
    }),
    response: z.object({
      ok,
      handle: z.string(),
      preserved_at: isoTime,
      chars: count,
      receipt_id: z.string(),
      read: z.string(),
    }),
  },
  'GET /standing': {
    query: z.object({ handle: optional(handleSchema), minted: optional(z.string().max(64)) }),
    response: standingViewSchema,
  },
  'POST /standing/rotate-relay': {
    body: z.object({ handle: handleSchema, return_to: returnTo }),
    form: true,
    response: z.object({
      ok,
      handle: z.string(),
      level: z.literal('attested'),
      attested: z.boolean(),
      rotated: z.boolean(),
      attested_by: z.string(),
      relay_token: z.string().describe('shown only now: give it to the agent privately'),
      receipt_id: z.string(),
      how: z.string(),
    }),
  },
});
