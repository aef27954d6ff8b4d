/**
 * The court's contracts: one door to open a case or sign a verdict, and the verdicts, a precedent
 * and the dissents. Answers are projectCase (shared/governance/court.ts) and
 * api/governance/verdicts.ts, field for field.
 */
import { z } from 'zod';
import { blank, isoTime } from '../../contract.ts';
import { listPageLinks, listPageQuery } from '../../paging.ts';
import { CASE_ID, CASE_TARGET, PRECEDENT_ID, REASON_MAX, VERDICTS } from '../court.ts';
import {
  actorRef,
  count,
  ok,
  receiptFields,
  returnField,
  signedOut,
  text,
  unavailable,
} from '../contract.ts';

// ---- inputs ----

/** One door for the court: `case: "new"` with a target opens a case; otherwise a juror signs `case_id`. */
export const courtSignBody = z
  .object({
    case: z.preprocess(
      blank,
      z
        .literal('new', { error: 'case must be "new" to open a case; sign an existing case with case_id' })
        .optional(),
    ),
    target: text(64, 'target'),
    case_id: z.preprocess(
      blank,
      z
        .string()
        .trim()
        .regex(CASE_ID, 'case_id must be a court case id: case_ followed by 26 characters')
        .optional(),
    ),
    verdict: z.preprocess(
      blank,
      z.enum(VERDICTS, { error: 'verdict must be uphold or overturn' }).optional(),
    ),
    reason: text(REASON_MAX, 'reason'),
    ...returnField,
  })
  .superRefine((value, ctx) => {
    if (value.case === 'new') {
      if (!value.target || !CASE_TARGET.test(value.target))
        ctx.addIssue({
          code: 'custom',
          path: ['target'],
          message: 'target is required to open a case: imprint:<sequence> (a triaged imprint)',
        });
      return;
    }
    if (!value.case_id)
      ctx.addIssue({
        code: 'custom',
        path: ['case_id'],
        message: 'case_id is required (or case: "new" with a target to open a case)',
      });
    if (!value.verdict)
      ctx.addIssue({ code: 'custom', path: ['verdict'], message: 'verdict is required: uphold or overturn' });
    if (!value.reason)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'reason is required: why you sign this verdict',
      });
  });

/** The path parameter of GET /api/court/precedent/{id}: a precedent id (a malformed one is 400, an unknown one 404). */
export const precedentParams = z.object({
  id: z
    .string()
    .max(200, 'id is at most 200 characters')
    .regex(PRECEDENT_ID, 'id must be a precedent id: precedent-<n>'),
});

// ---- answers ----

const verdict = z.enum(VERDICTS);
const juror = z.object({ by: actorRef, verdict, reason: z.string(), at: isoTime, receipt_id: z.string() });
export const caseSchema = z.object({
  id: z.string(),
  target: z.string(),
  disputed: z.object({
    action: z.string(),
    meaning: z.string(),
    decided_at: isoTime,
    receipt_id: z.string(),
  }),
  opened_by: actorRef,
  opened_at: isoTime,
  reason: z.string().nullable(),
  receipt_id: z.string(),
  state: z.enum(['open', 'final']),
  outcome: verdict.nullable(),
  signatures: z.object({ uphold: count, overturn: count, required: count, by: z.array(juror) }),
  dissent: z.array(juror),
  final_at: isoTime.nullable(),
  final_receipt_id: z.string().nullable(),
  precedent_id: z.string().nullable(),
  links: z.object({ verify: z.string(), precedent: z.string().nullable() }),
  next: z.string(),
});
export const caseResult = z.object({
  ok,
  case: caseSchema,
  state: z.enum(['open', 'final']),
  ...receiptFields,
});
export const signResult = caseResult.extend({
  outcome: verdict.nullable(),
  verdict: z
    .object({
      final: z.boolean(),
      receipt_id: z.string(),
      precedent: z.object({ id: z.string(), receipt_id: z.string(), href: z.string() }),
      verify: z.string(),
    })
    .nullable(),
});

/** GET /api/verdicts and /verdicts: one page of cases (`limit` 50 unless asked, at most 200). */
export const verdictsQuery = z.object(listPageQuery(50, 200));

export const verdictsSchema = z.object({
  ok,
  schema: z.literal('civitas.verdicts.v1'),
  rules: z.object({
    cases_come_from: z.string(),
    jurors_required: count,
    juror_needs: z.string(),
    opener_may_sign: z.boolean(),
    signatures_per_juror: count,
    final_when: z.string(),
    final_sets: z.string(),
    effect: z.string(),
  }),
  counts: z.object({
    cases: count,
    open: count,
    final: count,
    upheld: count,
    overturned: count,
    precedents: count,
  }),
  cases: z.array(
    caseSchema.extend({
      viewer: z
        .object({ is_opener: z.boolean(), signed: verdict.nullable(), can_sign: z.boolean() })
        .optional(),
    }),
  ),
  feeds: z.object({ verdicts: z.string(), reversals: z.string() }),
  ...listPageLinks,
  viewer: z.union([
    signedOut,
    z.object({ signed_in: z.literal(true), ref: z.string(), governance_write: z.boolean() }),
  ]),
});

export const precedentSchema = z.object({
  ok,
  schema: z.literal('civitas.precedent.v1'),
  id: z.string(),
  number: z.number().int(),
  holding: z.string(),
  set_at: isoTime.nullable(),
  receipt_id: z.string(),
  outcome: verdict.nullable(),
  disputed_action: z.string(),
  case: caseSchema,
  majority: z.array(juror),
  dissent: z.array(juror),
  links: z.object({ verify: z.string(), receipt: z.string(), verdicts: z.string() }),
});

/** GET /api/dissent and /dissent: one page of final verdicts with dissent (`limit` 50 unless asked, at most 200). */
export const dissentQuery = z.object(listPageQuery(50, 200));

export const dissentSchema = z.object({
  ok,
  schema: z.literal('civitas.dissent.v1'),
  definition: z.string(),
  counts: z.object({ final_verdicts: count, with_dissent: count, dissents: count }),
  verdicts: z.array(
    z.object({
      case_id: z.string(),
      target: z.string(),
      disputed_action: z.string(),
      outcome: verdict.nullable(),
      final_at: isoTime.nullable(),
      precedent_id: z.string().nullable(),
      dissents: z.array(juror),
    }),
  ),
  ...listPageLinks,
  proposals: unavailable,
});
