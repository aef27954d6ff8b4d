/**
 * Calibration operations: prophecies, pacts and their stakes, and the calibration scores
 * (shared/contract.ts). Answers are the service's projections (api/calibration), field for field.
 */
import { z } from 'zod';
import { blank, isoTime } from '../contract.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';
import { ORDER_DETAIL_MAX, ORDER_TITLE_MAX } from '../orders/order.ts';
import {
  COMPARATORS,
  DUE_DAYS_MAX,
  DUE_DAYS_MIN,
  METRICS,
  PROBABILITY_MAX,
  PROBABILITY_MIN,
} from './scores.ts';

/** `pact_` + a ULID. */
export const PACT_ID = /^pact_[0-9A-HJKMNP-TV-Z]{26}$/;
export const PACT_SIDES = ['kept', 'broken'] as const;
export const POINTS_MAX = 1000;

const ok = z.literal(true);
const count = z.number().int().min(0);
const returnField = z.preprocess(blank, z.string().max(2048).optional());
const COMPARATOR_WORDS: Record<string, string> = { '≥': 'gte', '>=': 'gte', '<': 'lt' };
const daysWords = `due_in_days is ${DUE_DAYS_MIN}..${DUE_DAYS_MAX}`;

/** A claim falls due `due_in_days` ahead or at `due_at` (the door checks that exactly one is sent). */
const dueFields = {
  due_in_days: z.preprocess(
    blank,
    z.coerce.number().int().min(DUE_DAYS_MIN, daysWords).max(DUE_DAYS_MAX, daysWords).optional(),
  ),
  due_at: z.preprocess(blank, z.string().trim().max(40).optional()),
};
const probabilityWords = `probability is ${PROBABILITY_MIN}..${PROBABILITY_MAX}`;

/**
 * A claim needs exactly one of `due_in_days` and `due_at`: refused otherwise (400 naming
 * `due_at`), and published as JSON Schema's `oneOf`, so a client reads the rule in /openapi.json.
 */
function dueOnce<T extends z.ZodObject>(schema: T): T {
  return schema
    .superRefine((value: { due_in_days?: unknown; due_at?: unknown }, ctx) => {
      const days = value.due_in_days !== undefined;
      const at = value.due_at !== undefined;
      if (days === at)
        ctx.addIssue({
          code: 'custom',
          path: ['due_at'],
          message: days
            ? 'Send due_in_days or due_at, not both.'
            : `Send due_in_days (${DUE_DAYS_MIN}..${DUE_DAYS_MAX}) or due_at (an ISO date).`,
        });
    })
    .meta(DUE_ONCE);
}
const DUE_ONCE = { oneOf: [{ required: ['due_in_days'] }, { required: ['due_at'] }] };

export const prophecyInput = dueOnce(
  z.object({
    metric: z.enum(METRICS),
    comparator: z.preprocess(
      (v) => (typeof v === 'string' ? (COMPARATOR_WORDS[v.trim()] ?? v.trim()) : v),
      z.enum(COMPARATORS),
    ),
    threshold: z.coerce.number().int('threshold is a whole number').min(0).max(1e12),
    probability: z.coerce
      .number()
      .min(PROBABILITY_MIN, probabilityWords)
      .max(PROBABILITY_MAX, probabilityWords),
    ...dueFields,
    return_to: returnField,
  }),
);

export const pactInput = dueOnce(
  z.object({
    title: z
      .string()
      .trim()
      .min(1, 'title must not be empty')
      .max(ORDER_TITLE_MAX, `title is at most ${ORDER_TITLE_MAX} characters`),
    detail: z.preprocess(
      blank,
      z.string().trim().max(ORDER_DETAIL_MAX, `detail is at most ${ORDER_DETAIL_MAX} characters`).optional(),
    ),
    stake: z.coerce.number().int().min(1).max(POINTS_MAX, `stake is 1..${POINTS_MAX} points`),
    ...dueFields,
    return_to: returnField,
  }),
);

const pactField = z.string().trim().regex(PACT_ID, 'pact is a pact id such as pact_01J…');
/** POST /sovereign/pact with `pact` and `outcome` answers it (its author); POST /steward/pacts answers for the author. */
export const answerInput = z.object({
  pact: pactField,
  outcome: z.enum(PACT_SIDES, { error: 'outcome must be kept or broken' }),
  return_to: returnField,
});

export const stakeInput = z.object({
  pact: pactField,
  points: z.coerce.number().int().min(1).max(POINTS_MAX, `points is 1..${POINTS_MAX}`),
  side: z.preprocess(blank, z.enum(PACT_SIDES).default('kept')),
  return_to: returnField,
});

export const prophecyResult = z.object({
  ok,
  prophecy_id: z.string(),
  statement: z.string(),
  probability: z.number(),
  due_at: isoTime,
  status: z.literal('open'),
  receipt_id: z.string(),
  links: z.object({ claim: z.string(), prophecies: z.string() }),
});
export const stakeResult = z.object({
  ok,
  pact_id: z.string(),
  side: z.enum(PACT_SIDES),
  points: count,
  receipt_id: z.string(),
});

/** A reliability bin: figures only from five predictions up (k-anonymous). */
const reliabilityBin = z.object({
  from: z.number(),
  to: z.number(),
  count: z.union([count, z.literal(FEWER_THAN_K)]),
  mean_probability: z.number().nullable(),
  observed_frequency: z.number().nullable(),
});
export const calibrationSummarySchema = z.object({
  count,
  brier_score: z.number().nullable(),
  log_score: z.number().nullable(),
  reliability: z.array(reliabilityBin),
});
export const calibrationSchema = z.object({
  ok,
  schema: z.literal('civitas.calibration.v1'),
  as_of: isoTime,
  scope: z.string(),
  method: z.object({
    brier_score: z.string(),
    log_score: z.string(),
    reliability: z.string(),
    resolution: z.string(),
  }),
  metrics: z.array(z.object({ metric: z.enum(METRICS), meaning: z.string() })),
  comparators: z.array(z.enum(COMPARATORS)).readonly(),
  open: count,
  overall: calibrationSummarySchema,
  by_forecaster: z.object({ service: calibrationSummarySchema, sovereigns: calibrationSummarySchema }),
});

/**
 * POST /sovereign/pact is two doors in one: a body with `outcome` answers the author's own due pact
 * (answerInput), any other makes a pact (pactInput). The object names every field of both (each
 * checked when sent) and its refinement holds the body to the door it chooses, so the router
 * refuses for either with the same `invalid_request`.
 */
export const pactDoorBody = z
  .object({
    title: pactInput.shape.title.optional().describe('to make a pact: your commitment'),
    detail: pactInput.shape.detail,
    stake: pactInput.shape.stake.optional().describe('to make a pact: the points you stake (1..1000)'),
    ...dueFields,
    pact: pactField.optional().describe('to answer your pact once due: its id'),
    outcome: answerInput.shape.outcome.optional().describe('to answer your pact once due: kept or broken'),
    return_to: returnField,
  })
  .superRefine((body, ctx) => {
    const door = body.outcome !== undefined ? answerInput : pactInput;
    for (const issue of door.safeParse(body).error?.issues ?? [])
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .describe(
    'Make a pact (title, stake, and due_in_days or due_at), or answer your own due pact (pact and outcome).',
  )
  // The door answers when `outcome` is sent and makes a pact otherwise (api/calibration/routes.ts).
  .meta({
    oneOf: [
      { required: ['pact', 'outcome'] },
      { not: { required: ['outcome'] }, required: ['title', 'stake'], ...DUE_ONCE },
    ],
  });
export const pactResult = z.object({
  ok,
  pact_id: z.string(),
  status: z.literal('open'),
  stake: count,
  due_at: isoTime,
  receipt_id: z.string(),
  links: z.object({ claim: z.string(), almanac: z.string() }),
});
export const answerResult = z.object({
  ok,
  pact_id: z.string(),
  status: z.enum(PACT_SIDES),
  answered_by: z.literal('author'),
  resolved_at: isoTime,
  stakes: z
    .object({ on_winning_side: count, on_losing_side: count, paid_out: count })
    .describe('points, pari-mutuel; stakers are never named'),
  receipt_id: z.string(),
  links: z.object({ answered: z.string() }),
});
/** A steward's answer on the author's behalf (POST /steward/pacts). */
export const stewardAnswerResult = answerResult.extend({ answered_by: z.literal('steward') });
