/**
 * The organism explains itself (shared/contract.ts): why an entity is in its state (GET
 * /api/why/{entity}) and what policy says of an actor taking an action (policy evaluation), each
 * with its reasons in words. Each answer is the projection of api/organism/checks (why.ts,
 * policy.ts), field for field.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { isPublicActor } from '../../actor.ts';
import { HANDLE_PATTERN } from '../../handle.ts';
import { levelSchema, nextActionSchema } from '../../agents/contract.ts';
import { ORDER_STATUSES } from '../../orders/order.ts';
import { POLICY_ACTIONS } from '../../policy.ts';
import { ENTITY_FORMS, readEntity } from '../entity.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);

/** The entity of GET /api/why/{entity}: one of ENTITY_FORMS; a malformed one is 400 naming what is wrong. */
export const whyParams = z.object({
  entity: z
    .string()
    .superRefine((raw, ctx) => {
      const entity = readEntity(raw);
      if ('problem' in entity) ctx.addIssue({ code: 'custom', message: entity.problem });
    })
    .meta({ description: `one of ${ENTITY_FORMS.join(', ')}`, examples: ['imprint:1'] }),
});

const why = { ok, schema: z.literal('civitas.why.v1'), entity: z.string(), reasons: z.array(z.string()) };
export const whySchema = z.discriminatedUnion('kind', [
  z.object({
    ...why,
    kind: z.literal('imprint'),
    state: z.object({
      sequence: count,
      retained: z.boolean(),
      held: z.boolean(),
      unattested: z.boolean(),
      recorded_at: isoTime,
      author: z.string().nullable().describe('null while held'),
      receipt_id: z.string(),
    }),
    links: z.object({ receipt: z.string(), window: z.string() }),
  }),
  z.object({
    ...why,
    kind: z.literal('agent'),
    state: z.object({
      handle: z.string(),
      level: levelSchema,
      days_with_proof: count,
      days_required: count,
      attested_by: z.string().nullable(),
      imprints_accepted: count,
      imprints_quarantined: count,
    }),
    missing: z.array(z.string()),
    next_actions: z.array(nextActionSchema),
    next: z.string(),
    links: z.object({ status: z.string() }),
  }),
  z.object({
    ...why,
    kind: z.literal('receipt'),
    state: z.object({
      id: z.string(),
      step: z.string(),
      day: z.string(),
      leaf_index: count,
      sealed: z.boolean(),
      subject_redacted: z.boolean(),
    }),
    links: z.object({
      receipt: z.string(),
      verify: z.string(),
      inclusion: z.string(),
      anchor: z.string().optional().describe('once the day is sealed'),
    }),
  }),
  z.object({
    ...why,
    kind: z.literal('order'),
    state: z.object({
      id: z.string(),
      title: z.string(),
      status: z.enum(ORDER_STATUSES),
      status_at: isoTime,
      seconds: count,
    }),
    history: z.array(
      z.object({
        status: z.enum(ORDER_STATUSES),
        at: isoTime,
        note: z.string().nullable(),
        receipt_id: z.string().nullable(),
      }),
    ),
    links: z
      .record(z.string(), z.string())
      .describe('orders, and one "<status> receipt" link per step with a receipt'),
  }),
]);

export const policyQuery = z.object({
  action: z.enum(POLICY_ACTIONS),
  actor: z
    .string()
    .trim()
    .toLowerCase()
    .max(80)
    .refine(isPublicActor, 'actor is agent:<handle> or sovereign:<4-hex tag>'),
  target: z.string().trim().toLowerCase().regex(HANDLE_PATTERN, 'target is an agent handle').optional(),
});
export type PolicyQuestion = z.output<typeof policyQuery>;

export const policyEvaluationSchema = z.object({
  ok,
  schema: z.literal('civitas.policy-evaluation.v1'),
  evaluated_at: isoTime,
  action: z.enum(POLICY_ACTIONS),
  actor: z.string(),
  target: z.string().optional(),
  found: z.boolean(),
  allowed: z.boolean(),
  reasons: z.array(z.string()),
  requires: z.object({
    method: z.literal('POST'),
    path: z.string(),
    scope: z.string().nullable(),
    external_authority: z.enum(['idp-oidc', 'idp-receipt']).nullable(),
  }),
  note: z.string(),
});
