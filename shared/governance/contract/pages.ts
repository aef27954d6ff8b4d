/**
 * The governance pages with a JSON twin: what each answers to `Accept: application/json`
 * (api/governance/views.ts). /constitution, /verdicts, /dissent and /abstentions answer the same
 * projection as their /api twin, so they share its schema.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { articleSchema, proposalSchema } from '../contract.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });

/** One step of a proposal's history with the receipt that recorded it (lineageOf in shared/governance/rules.ts). */
const lineageEvent = z.object({
  step: z.enum(['proposed', 'cosign', 'cosigned', 'ratification', 'ratified']),
  at: isoTime,
  by: actorRef.nullable().describe('null for the cosigned and ratified transitions'),
  receipt_id: z.string(),
});

export const lineageSchema = z.object({
  ok,
  schema: z.literal('civitas.lineage.v1'),
  steps: z.array(z.string()),
  note: z.string(),
  total_proposals: count,
  shown: count,
  proposals: z.array(proposalSchema.extend({ lineage: z.array(lineageEvent) })),
});

export const provenanceIndexSchema = z.object({
  ok,
  schema: z.literal('civitas.provenance.v1'),
  claims: z.array(
    z.object({
      claim: z.string(),
      kind: z.enum(['axiom', 'article']),
      title: z.string(),
      source: z.string(),
      href: z.string(),
    }),
  ),
  figures: z.array(
    z.object({ figure: z.string(), value: count, source: z.string(), computation: z.string() }),
  ),
  note: z.string(),
});

const claimBase = {
  ok,
  schema: z.literal('civitas.provenance-claim.v1'),
  claim: z.string(),
  origin: z.string(),
  lineage: z.array(lineageEvent),
};
/** Where one claim came from: an axiom (founded, no receipts), or an article or proposal with its lineage. */
export const provenanceClaimSchema = z.discriminatedUnion('kind', [
  z.object({
    ...claimBase,
    kind: z.literal('axiom'),
    axiom: z.object({ id: z.string(), number: z.number().int(), title: z.string(), text: z.string() }),
    proposal: z.null(),
    article: z.null(),
  }),
  z.object({
    ...claimBase,
    kind: z.enum(['article', 'proposal']),
    article: articleSchema.nullable(),
    proposal: proposalSchema,
    receipts: z.array(
      z.object({ step: lineageEvent.shape.step, receipt_id: z.string(), verify: z.string() }),
    ),
  }),
]);

export const ceremonySchema = z.object({
  ok,
  schema: z.literal('civitas.ceremony.v1'),
  steps: z.array(z.object({ step: z.string(), href: z.string(), text: z.string() })),
  pending: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      proposer: actorRef,
      cosigned_at: isoTime.nullable(),
      ratifications: proposalSchema.shape.ratifications,
      next: z.string(),
      viewer: z
        .object({ is_proposer: z.boolean(), ratified: z.boolean(), can_ratify: z.boolean() })
        .optional()
        .describe('only when signed in'),
    }),
  ),
  viewer: z.union([
    z.object({ signed_in: z.literal(false) }),
    z.object({
      signed_in: z.literal(true),
      ref: z.string(),
      governance_write: z.boolean(),
      uniqueness_receipt: z.boolean(),
      may_ratify: z.boolean(),
    }),
  ]),
});
