/**
 * Governance operations: the constitution, axioms, pledges, the court and abstentions
 * (shared/contract.ts). Inputs keep the refusal words the doors have always given; answers are
 * the projections of shared/governance/{rules,court}.ts and api/governance, field for field.
 */
import { z } from 'zod';
import { blank, isoTime } from '../contract.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';
import {
  CASE_ID,
  CASE_TARGET,
  PLEDGE_ID,
  PRECEDENT_ID,
  PLEDGE_STATUSES,
  PLEDGE_TEXT_MAX,
  REASON_MAX,
  REVIEW_OUTCOMES,
  VERDICTS,
} from './court.ts';
import { PROPOSAL_ID, PROPOSAL_STATES, TEXT_MAX, TITLE_MAX } from './rules.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const text = (max: number, name: string) =>
  z.preprocess(blank, z.string().trim().max(max, `${name} is at most ${max} characters`).optional());
const returnField = {
  return_to: z.preprocess(blank, z.string().max(2048, 'return_to is at most 2048 characters').optional()),
};

// ---- inputs ----

const proposalField = z
  .string({ error: 'proposal is required: a proposal id (prop_…)' })
  .trim()
  .regex(PROPOSAL_ID, 'proposal must be a proposal id: prop_ followed by 26 characters');
export const signBody = z.object({ proposal: proposalField, ...returnField });
export const proposeBody = z.object({
  title: z
    .string({ error: 'title is required' })
    .trim()
    .min(1, 'title is required')
    .max(TITLE_MAX, `title is at most ${TITLE_MAX} characters`),
  text: z
    .string({ error: 'text is required' })
    .trim()
    .min(1, 'text is required')
    .max(TEXT_MAX, `text is at most ${TEXT_MAX} characters`),
  amends: text(64, 'amends'),
  ...returnField,
});

const articleWords = 'article is required: an axiom id (axiom-<n>) or an article id (article-<n>)';
export const pledgeBody = z.object({
  article: z
    .string({ error: articleWords })
    .trim()
    .min(1, articleWords)
    .max(64, 'article is at most 64 characters'),
  text: text(PLEDGE_TEXT_MAX, 'text'),
  ...returnField,
});
const pledgeField = z
  .string({ error: 'pledge is required: a pledge id (plg_…)' })
  .trim()
  .regex(PLEDGE_ID, 'pledge must be a pledge id: plg_ followed by 26 characters');
export const backBody = z.object({ pledge: pledgeField, ...returnField });
export const reviewBody = z.object({
  pledge: pledgeField,
  outcome: z.enum(REVIEW_OUTCOMES, { error: 'outcome must be upheld or lapsed' }),
  ...returnField,
});
export const codexQuery = z.object({
  article: text(64, 'article'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit is at least 1')
    .max(200, 'limit is at most 200')
    .default(100),
});

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

// ---- answers ----

/** projectActorRef: a sovereign by public tag only. */
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });
const signature = z.object({ by: actorRef, at: isoTime, receipt_id: z.string() });
const tally = z.object({ count, required: count, by: z.array(signature) });
const receiptFields = { receipt_id: z.string(), receipt: z.string().describe('/receipt/{id}') };

export const proposalSchema = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  amends: z.string().nullable(),
  state: z.enum(PROPOSAL_STATES),
  proposer: actorRef,
  proposed_at: isoTime,
  receipt_id: z.string(),
  cosigns: tally,
  ratifications: tally,
  cosigned_at: isoTime.nullable(),
  ratified_at: isoTime.nullable(),
  article_id: z.string().nullable(),
  next: z.string(),
});
export const articleSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
  text: z.string(),
  amends: z.string().nullable(),
  amended_by: z.array(z.string()),
  proposal_id: z.string(),
  ratified_at: isoTime,
  receipt_id: z.string(),
  provenance: z.string(),
});
const signedOut = z.object({ signed_in: z.literal(false) });
export const constitutionSchema = z.object({
  ok,
  schema: z.literal('civitas.constitution.v1'),
  rules: z.object({
    cosigns_required: count,
    ratifications_required: count,
    proposer_may_cosign: z.boolean(),
    proposer_may_ratify: z.boolean(),
    ratifier_needs: z.string(),
  }),
  axioms: z.object({ count, href: z.string(), note: z.string() }),
  articles: z.array(articleSchema),
  proposals: z.array(
    proposalSchema.extend({
      viewer: z
        .object({
          is_proposer: z.boolean(),
          cosigned: z.boolean(),
          ratified: z.boolean(),
          can_cosign: z.boolean(),
          can_ratify: z.boolean(),
        })
        .optional(),
    }),
  ),
  counts: z.object({ articles: count, proposed: count, awaiting_ratification: count }),
  viewer: z.union([
    signedOut,
    z.object({
      signed_in: z.literal(true),
      ref: z.string(),
      governance_write: z.boolean(),
      uniqueness_receipt: z.boolean(),
      may_ratify: z.boolean(),
    }),
  ]),
});
export const proposalResult = z.object({
  ok,
  proposal: proposalSchema,
  state: z.enum(PROPOSAL_STATES),
  ...receiptFields,
});
export const ratifyResult = proposalResult.extend({
  article: z.object({ id: z.string(), receipt_id: z.string(), provenance: z.string() }).nullable(),
});

export const axiomsSchema = z.object({
  ok,
  schema: z.literal('civitas.axioms.v1'),
  fixed: z.boolean(),
  count,
  note: z.string(),
  axioms: z.array(
    z.object({ id: z.string(), number: z.number().int(), title: z.string(), text: z.string() }),
  ),
});

export const pledgeSchema = z.object({
  id: z.string(),
  article: z.string(),
  article_title: z.string().nullable(),
  text: z.string().nullable(),
  by: actorRef,
  made_at: isoTime,
  status: z.enum(PLEDGE_STATUSES),
  live: z.boolean(),
  backers: z.object({ count, by: z.array(signature) }),
  reviews: z.array(signature.extend({ outcome: z.enum(REVIEW_OUTCOMES) })),
  reviewed_at: isoTime.nullable(),
  receipt_id: z.string(),
});
export const pledgeResult = z.object({
  ok,
  pledge: pledgeSchema,
  status: z.enum(PLEDGE_STATUSES),
  ...receiptFields,
});
export const codexSchema = z.object({
  ok,
  schema: z.literal('civitas.codex-pledges.v1'),
  rules: z.object({
    live_pledges_per_article_per_sovereign: count,
    pledger_may_back: z.boolean(),
    pledger_may_review: z.boolean(),
    reviewer_needs: z.string(),
    review_outcomes: z.array(z.string()),
    note: z.string(),
  }),
  filter: z.object({ article: z.string().nullable(), limit: count }),
  counts: z.object({ pledges: count, live: count, upheld: count, lapsed: count, backs: count }),
  per_article: z.array(
    z.object({
      article: z.string(),
      title: z.string().nullable(),
      pledges: count,
      live: count,
      upheld: count,
      lapsed: count,
      backers: count,
    }),
  ),
  pledges: z.array(pledgeSchema),
});

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

const unavailable = z.object({ available: z.literal(false), note: z.string() });
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
  proposals: unavailable,
});

const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
export const abstentionsSchema = z.object({
  ok,
  schema: z.literal('civitas.abstentions.v1'),
  definition: z.string(),
  quorum: z.string(),
  ratifications: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      state: z.string(),
      final: z.boolean(),
      ratifications: count,
      ratifications_required: count,
      eligible_ratifiers: kCount,
      abstentions: kCount,
    }),
  ),
  verdicts: unavailable,
});

/** The path parameter of GET /api/court/precedent/{id}: a precedent id (a malformed one is 400, an unknown one 404). */
export const precedentParams = z.object({
  id: z
    .string()
    .max(200, 'id is at most 200 characters')
    .regex(PRECEDENT_ID, 'id must be a precedent id: precedent-<n>'),
});
