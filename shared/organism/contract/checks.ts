/**
 * The organism's checks on itself (shared/contract.ts): the self-trials and their watch
 * (vigilance), linearizability, discrimination, and trust (the kept history of the truth checks).
 * Each answer is the projection of api/organism/checks (trust: api/organism/mind/truth.ts), field
 * for field. Why an entity is in its state and policy evaluation are in explanations.ts.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { FEWER_THAN_K } from '../../boundaries/k-anonymity.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);

export const TRIAL_NAMES = [
  'record_window',
  'gap_free_sequence',
  'anchor_chain',
  'boundaries',
  'receipts',
] as const;

export const trialSchema = z.object({
  name: z.enum(TRIAL_NAMES),
  passed: z.boolean(),
  detail: z.string(),
  checked_at: isoTime,
});

const position = z
  .string()
  .describe('a position in its history, in words ("imprint 510", "log day 2026-11-22, leaf 14")');

/**
 * How far the kept self-knowledge has been verified (docs/organism.md "Self-knowledge kept"): per
 * walk, what the frontier verified from genesis, whether it stood at the head at `as_of`, where
 * the rolling re-check of verified rows and the operator's full re-verification have reached.
 */
export const verificationSchema = z.object({
  rule: z.string(),
  batch: count.describe('items each walk verifies at most per run and mode'),
  walks: z.array(
    z.object({
      walk: z.enum(['imprints', 'ledger', 'censuses']),
      verified: count,
      verified_through: position,
      complete: z.boolean().describe('true when the walk had verified everything stored at as_of'),
      days: count.optional().describe('ledger: sealed days whose anchor was verified'),
      rechecked: z.object({
        through: position,
        lap_started_at: isoTime.nullable(),
        last_lap_completed_at: isoTime.nullable(),
      }),
      full: z
        .object({ through: position, started_at: isoTime.nullable(), completed_at: isoTime.nullable() })
        .nullable(),
    }),
  ),
});

/**
 * The self-trials as the verification job kept them (`as_of`): the boundaries block is the live
 * census of that run (null when it could not run); `verification` says how far each walk reached.
 */
export const selfTrialsSchema = z.object({
  ok,
  schema: z.literal('civitas.self-trials.v1'),
  checked_at: isoTime,
  as_of: isoTime,
  all_passed: z.boolean(),
  passed: count,
  failed: count,
  trials: z.array(trialSchema),
  boundaries: z
    .object({
      total: count,
      active: count,
      unbound_count: count,
      all_bound: z.boolean(),
      fully_accounted: z.boolean(),
    })
    .nullable(),
  verification: verificationSchema,
});

/** The watched trials and the alerts raised and cleared; `this_pass` is skipped while another process watches. */
export const vigilanceSchema = z.object({
  ok,
  schema: z.literal('civitas.vigilance.v1'),
  as_of: isoTime,
  watched: z.array(
    z.object({
      trial: z.enum(TRIAL_NAMES),
      watches: z.string(),
      passing: z.boolean().nullable(),
      since: isoTime.nullable(),
      last_checked_at: isoTime.nullable(),
    }),
  ),
  this_pass: z.union([
    z.object({ raised: z.array(z.string()), cleared: z.array(z.string()) }),
    z.object({ skipped: z.string() }),
  ]),
  last_pass_at: isoTime.nullable().describe('when the verification job ran the pass this_pass shows'),
  alerts_raised: count,
  alerts_cleared: count,
  open_alerts: count,
  alerts: z.array(
    z.object({
      trial: z.string(),
      detail: z.string(),
      raised_at: isoTime,
      cleared_at: isoTime.nullable(),
      open: z.boolean(),
      seconds: z.number().int(),
      receipt_id: z.string(),
    }),
  ),
  cadence: z.string(),
});

/** Violations by sequence numbers and leaf positions only (no ids, no subjects). */
export const linearizabilitySchema = z.object({
  ok,
  schema: z.literal('civitas.linearizability.v1'),
  checked_at: isoTime,
  linearizable: z.boolean(),
  record: z.object({
    rule: z.string(),
    checked: count,
    violations: count,
    examples: z.array(
      z.object({
        earlier_sequence: count,
        later_sequence: count,
        earlier_number_at: isoTime,
        later_number_at: isoTime,
      }),
    ),
  }),
  receipts: z.object({
    rule: z.string(),
    checked: count,
    days: count,
    violations: count,
    examples: z.array(z.object({ date: z.string(), earlier_leaf_index: count, later_leaf_index: count })),
  }),
  limit: count,
});

const rate = z.number().min(0).max(1);
/** A kind or cohort (kind and join month only): under 5 distinct authors it publishes no counts or rates. */
const groupBase = {
  kind: z.enum(['agent', 'sovereign']),
  joined_month: z.string().optional().describe('cohorts only: YYYY-MM, or unknown'),
};
const groupSchema = z.union([
  z.object({
    ...groupBase,
    authors: kCount,
    imprints: kCount,
    published: z.literal(false),
    hold_rate: z.null(),
    quarantine_rate: z.null(),
  }),
  z.object({
    ...groupBase,
    authors: count,
    imprints: count,
    published: z.literal(true),
    held: count,
    quarantined: count,
    hold_rate: rate,
    quarantine_rate: rate,
  }),
]);
const spreadSchema = z
  .object({ max: rate, min: rate, difference: z.number(), ratio: z.number().nullable() })
  .nullable();
const disparities = z.object({ hold_rate: spreadSchema, quarantine_rate: spreadSchema });

export const discriminationSchema = z.object({
  ok,
  schema: z.literal('civitas.discrimination.v1'),
  as_of: isoTime.nullable().describe('when the job computed the kept figures; null before its first run'),
  k_anonymity: z.object({ threshold: count, rule: z.string() }),
  outcomes: z.object({ hold_rate: z.string(), quarantine_rate: z.string() }),
  by_kind: z.array(groupSchema),
  by_cohort: z.array(groupSchema),
  disparities: z.object({ kinds: disparities, cohorts: disparities }),
  basis: z.string(),
});

/** The history of the truth checks: how often each claim held, overall and per UTC day (30 days). */
export const trustSchema = z.object({
  ok,
  schema: z.literal('civitas.trust.v1'),
  as_of: isoTime,
  checks: count,
  held: count,
  fraction_held: rate.nullable(),
  proved_now: z.array(z.string()),
  not_proved: z.array(z.string()),
  claims: z.array(
    z.object({
      claim: z.string(),
      statement: z.string(),
      checks: count,
      held: count,
      fraction_held: rate.nullable(),
      last_held: z.boolean().nullable(),
      first_checked_at: isoTime.nullable(),
      last_checked_at: isoTime.nullable(),
      last_not_held_at: isoTime.nullable(),
    }),
  ),
  by_day: z.array(z.object({ date: z.string(), checks: count, held: count })),
  rule: z.string(),
});
