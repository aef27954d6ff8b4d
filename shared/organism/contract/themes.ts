/**
 * Themes of the Record: drift, dreaming and the constellation of terms (shared/contract.ts). Only words
 * and counts leave, never a body; each answer is the projection of api/organism/themes.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
/** A word of the stored search vectors: in how many bodies, how often. */
const termCount = z.object({ term: z.string(), documents: count, occurrences: count });
const week = z.object({ from: isoTime, to: isoTime, kinds: z.record(z.string(), count), imprints: count });
const termsOfWeek = z.object({ bodies: count, terms: z.array(termCount) });

export const driftSchema = z.object({
  ok,
  schema: z.literal('civitas.drift.v1'),
  as_of: isoTime,
  this_week: week,
  last_week: week,
  kinds: z.object({ divergence: z.number().nullable(), measure: z.string() }),
  topics: z.object({
    divergence: z.number().nullable(),
    this_week: termsOfWeek,
    last_week: termsOfWeek,
    rising: z.array(z.string()),
    fading: z.array(z.string()),
    basis: z.string(),
  }),
});

export const constellationSchema = z.object({
  ok,
  schema: z.literal('civitas.constellation.v1'),
  as_of: isoTime,
  bodies: count,
  stars: z.array(z.object({ term: z.string(), bodies: count })),
  links: z.array(z.object({ a: z.string(), b: z.string(), shared: count })),
  rule: z.string(),
});

/** A distinctive term of a dream: in how many of the day's bodies, and its score against the window. */
export const dreamTermSchema = z.object({ term: z.string(), count, score: z.number() });
export type DreamTerm = z.infer<typeof dreamTermSchema>;

const dream = z.object({
  date: z.string().describe('YYYY-MM-DD'),
  window_start: isoTime,
  window_end: isoTime,
  bodies: count,
  terms: z.array(dreamTermSchema),
  receipt_id: z.string(),
});

/** The newest 30 dreams (terms and counts only, never a body). */
export const dreamingSchema = z.object({
  ok,
  schema: z.literal('civitas.dreaming.v1'),
  as_of: isoTime,
  dreams_total: count,
  latest: dream.nullable(),
  dreams: z.array(dream),
  method: z.string(),
});
