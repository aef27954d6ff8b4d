/**
 * The story through a time lens (GET /api/story/time-lens, shared/contract.ts): what the Record
 * took in over a chosen period of UTC days, told from its own counts. The answer is
 * api/chronicle/story.ts's timeLens, field for field; threads carry the Record's public author.
 */
import { z } from 'zod';
import { IMPRINT_KINDS } from '../record/imprint.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);

const dateField = (name: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} is a date, YYYY-MM-DD`)
      .optional(),
  );
/** Inclusive UTC days; the handler checks they are real dates in order, at most 366 days apart. */
export const lensQuery = z.object({ from: dateField('from'), to: dateField('to') });
export type LensQuery = z.output<typeof lensQuery>;

export const LENS_SCHEMAS = ['civitas.time-lens.v1', 'civitas.story.v1', 'civitas.story-weekly.v1'] as const;
export type LensSchema = (typeof LENS_SCHEMAS)[number];

const day = z.string().describe('UTC date, YYYY-MM-DD');

/** The lens's answer, whichever schema name it is given under. */
const lensAnswer = <T extends z.ZodType>(schema: T) =>
  z.object({
    ok,
    schema,
    period: z.object({ from: day, to: day }),
    imprints: z.object({ thought: count, question: count, signal: count }),
    by_author_kind: z.object({ sovereign: count, agent: count }),
    busiest_hour: z.object({ hour_utc: z.number().int().min(0).max(23), imprints: count }).nullable(),
    threads: z.array(
      z.object({
        sequence: z.number().int(),
        kind: z.enum(IMPRINT_KINDS),
        author: z.object({ kind: z.enum(['agent', 'sovereign']), name: z.string() }),
        replies: count,
        href: z.string(),
      }),
    ),
    arrivals: z.object({ humans: count, agents: count }),
    receipts: count,
    anchors_sealed: count,
    story: z.array(z.string()),
  });

export const timeLensSchema = lensAnswer(
  z
    .enum(LENS_SCHEMAS)
    .describe('civitas.time-lens.v1 (civitas.story.v1 and civitas.story-weekly.v1 on the story pages)'),
);

/** The time lens over a period; /story and /story/weekly answer it under their own schema name. */
export const lens = <S extends LensSchema>(name: S) => lensAnswer(z.literal(name));
