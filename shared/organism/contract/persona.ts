/**
 * The organism's persona (now, becoming, history, narrative) and its soul (shared/contract.ts).
 * Each answer is the projection of api/organism/self/{persona,soul}.ts, field for field.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { FAILURE_LANES } from '../../boundaries/projectors/failures.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);

/** Voice by age (docs/organism.md): unborn before anyone arrives, new under 30 days, growing under a year, then established. */
export const VOICES = ['unborn', 'new', 'growing', 'established'] as const;
export type Voice = (typeof VOICES)[number];
const voice = z.enum(VOICES);
/** Confident when every mind claim holds, else watchful. */
const stance = z.enum(['confident', 'watchful']);

/** The persona's figures as they stood at an instant, from creation times of stored rows. */
export const personaFiguresSchema = z.object({
  as_of: isoTime,
  age_days: count.nullable(),
  born_at: isoTime
    .nullable()
    .describe("the first participant's or imprint's time; null before anyone arrived"),
  population: z.object({ humans: count, agents: count }),
  imprints_lifetime: count,
  busiest_kinds: z.array(z.object({ kind: z.string(), imprints: count })),
  lessons: count,
});
export type PersonaFigures = z.infer<typeof personaFiguresSchema>;

export const personaSchema = z.object({
  ok,
  schema: z.literal('civitas.persona.v1'),
  as_of: isoTime,
  voice,
  stance,
  figures: personaFiguresSchema.extend({ claims_held: count, claims: count }),
  latest_lessons: z.array(z.string()),
  links: z.object({ becoming: z.string(), history: z.string(), narrative: z.string(), mind: z.string() }),
  rule: z.string(),
});

/** One figure then and now: `ratio` is null where it was 0. */
const change = z.object({
  before: count,
  after: count,
  change: z.number().int(),
  ratio: z.number().nullable(),
});
const busiest = personaFiguresSchema.shape.busiest_kinds;

export const becomingSchema = z.object({
  ok,
  schema: z.literal('civitas.persona.becoming.v1'),
  as_of: isoTime,
  compared_with: isoTime,
  days: count,
  voice: z.object({ before: voice, after: voice }),
  changes: z.object({ humans: change, agents: change, imprints_lifetime: change, lessons: change }),
  busiest_kinds: z.object({ before: busiest, after: busiest }),
  why: z.array(z.string()),
});

export const historySchema = z.object({
  ok,
  schema: z.literal('civitas.persona.history.v1'),
  as_of: isoTime,
  months: count,
  current: personaFiguresSchema.extend({ voice }),
  snapshots: z.array(personaFiguresSchema.extend({ month: z.string().describe('YYYY-MM'), voice })),
  rule: z.string(),
});

export const narrativeSchema = z.object({
  ok,
  schema: z.literal('civitas.persona.narrative.v1'),
  as_of: isoTime,
  voice,
  stance,
  narrative: z.string(),
  sentences: z.array(z.string()),
  sources: z.array(z.string()),
  rule: z.string(),
});

/** failure_projection: the kind and the lane of a failure, never its words. */
const failureView = z.object({
  ok: z.literal(false),
  reason: z.enum(['provider_unavailable', 'internal_error']),
  hint: z.string(),
  lane: z.enum(FAILURE_LANES),
});

export const soulSchema = z.object({
  ok,
  schema: z.literal('civitas.soul.v1'),
  as_of: isoTime,
  purpose: z.string(),
  holding: count,
  not_holding: count,
  unchecked: count,
  structural: count,
  commitments: z.array(
    z.object({
      axiom: z.string(),
      title: z.string(),
      text: z.string(),
      check: z.string(),
      structural: z.boolean(),
      holds: z.boolean().nullable().describe('null: structural, or not checked yet'),
      evidence: z.string(),
      source: z.string().nullable(),
      failure: failureView.optional().describe('only when the check could not run'),
    }),
  ),
  rule: z.string(),
});
