/**
 * The steward operations: triage of held imprints and reports, lessons distilled from
 * non-quarantined imprints, and the public lessons list (shared/contract.ts).
 */
import { z } from 'zod';
import { blank, isoTime } from '../contract.ts';

export const TRIAGE_ACTIONS = ['release', 'keep_held', 'dismiss'] as const;
export type TriageAction = (typeof TRIAGE_ACTIONS)[number];

/** A report id as POST /imprint/report mints it: `rep_` + a ULID. */
const REPORT_ID = /^rep_[0-9A-HJKMNP-TV-Z]{26}$/i;
const IMPRINT_TARGET = /^imprint:([1-9][0-9]{0,15})$/;

export type TriageTarget = { kind: 'imprint'; sequence: number } | { kind: 'report'; id: string };

export const triageTarget = z
  .string()
  .trim()
  .min(1, 'target is required: imprint:<sequence> or a report id (rep_…)')
  .max(64, 'target is at most 64 characters')
  .transform((value, ctx): TriageTarget => {
    const imprint = IMPRINT_TARGET.exec(value);
    if (imprint) return { kind: 'imprint', sequence: Number(imprint[1]) };
    if (REPORT_ID.test(value)) return { kind: 'report', id: `rep_${value.slice(4).toUpperCase()}` };
    ctx.addIssue({
      code: 'custom',
      message: 'target must be imprint:<sequence> (e.g. imprint:42) or a report id (rep_…)',
    });
    return z.NEVER;
  });

export const triageFields = {
  target: triageTarget,
  action: z.enum(TRIAGE_ACTIONS, { error: 'action must be release, keep_held or dismiss' }),
  note: z.preprocess(blank, z.string().trim().max(2000, 'note is at most 2000 characters').optional()),
};

export const MAX_LESSON_BODY = 2000;
export const MAX_LESSON_SOURCES = 50;

/** `from` as JSON sends it (an array) or a form does (repeated fields, or "12, 15 18"). */
const sourceList = z.preprocess(
  (value) => {
    const parts = (Array.isArray(value) ? value : [value]).flatMap((v) =>
      typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : [v],
    );
    return value === undefined || value === null
      ? value
      : parts.map((p) => (typeof p === 'string' && /^#?\d+$/.test(p) ? Number(p.replace('#', '')) : p));
  },
  z
    .array(
      z
        .number({ error: 'each source is an imprint sequence number' })
        .int('each source is a whole number')
        .positive('each source is a positive sequence number'),
      {
        error: 'from is required: the sequence numbers of the imprints the lesson comes from',
      },
    )
    .min(1, 'from needs at least one imprint sequence number')
    .max(MAX_LESSON_SOURCES, `from names at most ${MAX_LESSON_SOURCES} imprints`),
);

export const lessonFields = {
  title: z
    .string({ error: 'title is required' })
    .trim()
    .min(1, 'title must not be empty')
    .max(200, 'title is at most 200 characters'),
  body: z
    .string({ error: 'body is required' })
    .trim()
    .min(1, 'body must not be empty')
    .max(MAX_LESSON_BODY, `body is at most ${MAX_LESSON_BODY} characters`),
  from: sourceList,
};

export const ok = z.literal(true);
export const count = z.number().int().min(0);
export const returnField = {
  return_to: z.preprocess(blank, z.string().max(2048, 'return_to is at most 2048 characters').optional()),
};
export const lesson = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  sources: z.array(z.number().int()),
  recorded_at: isoTime,
  receipt_id: z.string(),
});
