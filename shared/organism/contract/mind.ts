/**
 * The organism's mind (shared/contract.ts): its claims about itself with their latest check and
 * k-anonymous stance counts, the stance a signed-in sovereign takes on one, and the truth checks
 * run now. Each answer is the projection of api/organism/mind, field for field; who took a stance
 * and the reasons given never leave.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { FEWER_THAN_K } from '../../boundaries/k-anonymity.ts';
import { verificationSchema } from './checks.ts';

export const STANCES = ['agree', 'disagree', 'unsure'] as const;
export const REASON_MAX = 500;

const ok = z.literal(true);
const count = z.number().int().min(0);
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);

const claimField = z
  .string({ error: 'claim is required: a claim id such as window_bounded' })
  .trim()
  .regex(
    /^[a-z][a-z0-9_]{0,63}$/,
    'claim must be a claim id: lowercase letters, digits and underscores (at most 64)',
  );

/** Strict: an unknown parameter is refused, not ignored. */
export const mindQuery = z.strictObject({ claim: claimField.optional() });

export const stanceBody = z.object({
  claim: claimField,
  stance: z.enum(STANCES, { error: 'stance must be agree, disagree or unsure' }),
  reason: z
    .string({ error: 'reason is required' })
    .trim()
    .min(1, 'reason is required')
    .max(REASON_MAX, `reason is at most ${REASON_MAX} characters`),
  return_to: z.string().max(2048, 'return_to is at most 2048 characters').optional(),
});

const claimView = z.object({
  id: z.string(),
  statement: z.string(),
  check: z
    .object({ held: z.boolean(), evidence: z.string(), checked_at: isoTime })
    .nullable()
    .describe('null until the claim is first checked'),
  stances: z.object({ agree: kCount, disagree: kCount, unsure: kCount, taken: kCount }),
  links: z.object({ page: z.string(), truth: z.string(), trust: z.string() }),
});

/** GET /api/mind: every claim. */
export const mindSchema = z.object({
  ok,
  schema: z.literal('civitas.mind.v1'),
  as_of: isoTime,
  count,
  held: count,
  claims: z.array(claimView),
  stance: z.object({
    method: z.literal('POST'),
    path: z.string(),
    fields: z.object({ claim: z.string(), stance: z.string(), reason: z.string() }),
    needs: z.string(),
  }),
  feed: z.string(),
  rule: z.string(),
});

/** GET /api/mind?claim=<id>: one claim and its first check and every change of its result, newest first. */
export const mindClaimSchema = z.object({
  ok,
  schema: z.literal('civitas.mind.claim.v1'),
  as_of: isoTime,
  claim: claimView,
  changes: z.array(
    z.object({
      claim: z.string(),
      held: z.boolean(),
      evidence: z.string(),
      at: isoTime,
      kind: z.enum(['first_check', 'now_holds', 'no_longer_holds']),
    }),
  ),
  rule: z.string(),
});

export const stanceSchema = z.object({
  ok,
  claim: z.string(),
  stance: z.enum(STANCES),
  replaced: z.boolean().describe('true when it replaced the stance this sovereign took before'),
  taken_at: isoTime,
  receipt: z.object({ id: z.string(), step: z.string(), subject: z.string(), recorded_at: isoTime }),
  links: z.object({ claim: z.string(), receipt: z.string() }),
});

export const truthSchema = z.object({
  ok,
  schema: z.literal('civitas.truth.v1'),
  checked_at: isoTime,
  as_of: isoTime.describe(
    'when the verification job checked this round (the same round /api/trust counts last)',
  ),
  claims: count,
  held: count,
  not_held: count,
  checks: z.array(
    z.object({
      claim: z.string(),
      statement: z.string(),
      held: z.boolean(),
      evidence: z.string(),
      checked_at: isoTime,
    }),
  ),
  verification: verificationSchema,
  history: z.string(),
});
