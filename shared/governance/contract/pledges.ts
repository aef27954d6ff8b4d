/**
 * The pledges' contracts: making, backing and reviewing a pledge, and the codex
 * (GET /api/codex/pledges). Answers are projectPledge (shared/governance/court.ts) and
 * api/governance/codex.ts, field for field.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { PLEDGE_ID, PLEDGE_STATUSES, PLEDGE_TEXT_MAX, REVIEW_OUTCOMES } from '../court.ts';
import { actorRef, count, ok, receiptFields, returnField, signature, text } from '../contract.ts';

// ---- inputs ----

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

// ---- answers ----

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
