/**
 * The agent operations: imprint by handle, status, certificates, continuity and standing
 * (shared/contract.ts). The status projection's types are `z.infer` of these schemas.
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';
import { imprintResultSchema } from '../record/contract.ts';
import { continuityField, handleSchema } from '../handle.ts';

/** Notes an agent preserves are at most this long. */
export const MAX_NOTE_CHARS = 4000;

/** Why a certificate did not verify. */
export const CERTIFICATE_PROBLEMS = ['expired', 'signature', 'claims', 'malformed'] as const;
export type CertificateProblem = (typeof CERTIFICATE_PROBLEMS)[number];

export const ok = z.literal(true);
export const count = z.number().int().min(0);
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
export const nextActions = {
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

export const continuity = continuityField;
export const handleQuery = z.object({ handle: handleSchema });

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
