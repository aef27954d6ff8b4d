/**
 * Governance operations: the constitution, axioms and abstentions (shared/contract.ts), and the
 * pieces the pledges' and the court's contracts share (contract/pledges.ts, contract/court.ts).
 * Inputs keep the refusal words the doors have always given; answers are the projections of
 * shared/governance/rules.ts and api/governance, field for field.
 */
import { z } from 'zod';
import { blank, isoTime } from '../contract.ts';
import { listPageLinks, listPageQuery } from '../paging.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';
import { PROPOSAL_ID, PROPOSAL_STATES, TEXT_MAX, TITLE_MAX } from './rules.ts';

export const ok = z.literal(true);
export const count = z.number().int().min(0);
export const text = (max: number, name: string) =>
  z.preprocess(blank, z.string().trim().max(max, `${name} is at most ${max} characters`).optional());
export const returnField = {
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

// ---- answers ----

/** projectActorRef: a sovereign by public tag only. */
export const actorRef = z.object({
  kind: z.enum(['sovereign', 'agent']),
  ref: z.string(),
  display: z.string(),
});
export const signature = z.object({ by: actorRef, at: isoTime, receipt_id: z.string() });
const tally = z.object({ count, required: count, by: z.array(signature) });
export const receiptFields = { receipt_id: z.string(), receipt: z.string().describe('/receipt/{id}') };

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
export const signedOut = z.object({ signed_in: z.literal(false) });
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

export const unavailable = z.object({ available: z.literal(false), note: z.string() });
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
  ...listPageLinks,
  verdicts: unavailable,
});

/** GET /api/abstentions and /abstentions: one page of proposals (`limit` 50 unless asked, at most 200). */
export const abstentionsQuery = z.object(listPageQuery(50, 200));
