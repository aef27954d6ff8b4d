/**
 * The organism's pages with a JSON twin (/dream-constellation, /branchworld/{id}): what each
 * answers to `Accept: application/json` (api/organism/themes, api/organism/experiments).
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { COMPARATORS, METRICS } from '../../calibration/scores.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const day = z.string().describe('UTC date, YYYY-MM-DD');

export const dreamConstellationSchema = z.object({
  ok,
  schema: z.literal('civitas.dream-constellation.v1'),
  as_of: isoTime,
  dreams: count,
  stars: z.array(z.object({ term: z.string(), dreams: count, first_dreamt: day, last_dreamt: day })),
  links: z.array(z.object({ a: z.string(), b: z.string(), shared: count })),
  rule: z.string(),
});

const branchBase = {
  ok,
  schema: z.literal('civitas.branchworld.v1'),
  as_of: isoTime,
  id: z.string(),
  method: z.string(),
};
/** A what-if from a prophecy (its metric's trajectory) or from a proposal (its remaining steps). */
export const branchworldSchema = z.discriminatedUnion('from', [
  z.object({
    ...branchBase,
    from: z.literal('prophecy'),
    prophecy: z.object({
      id: z.string(),
      statement: z.string(),
      metric: z.enum(METRICS),
      metric_meaning: z.string(),
      comparator: z.enum(COMPARATORS),
      threshold: z.number(),
      probability: z.number(),
      due_at: isoTime,
      status: z.enum(['open', 'resolved']),
      observed: z.number().nullable(),
      outcome: z.boolean().nullable(),
    }),
    current: z.number(),
    trajectory: z.array(z.object({ date: day, value: z.number() })),
    branch: z.object({
      per_day: z.number().nullable(),
      projected_at_due: z.number().nullable(),
      would_hold: z.boolean().nullable(),
      holds_now: z.boolean(),
      days_to_threshold: z.number().int().nullable(),
    }),
  }),
  z.object({
    ...branchBase,
    from: z.literal('proposal'),
    proposal: z.object({
      id: z.string(),
      title: z.string(),
      amends: z.string().nullable(),
      state: z.string(),
      created_at: isoTime,
      cosigns: count,
      cosigns_required: count,
    }),
    branches: z.array(z.object({ step: z.string(), taken: z.boolean(), effect: z.string() })),
  }),
]);
