/**
 * The organism's self: its season, its evolution and its journal (shared/contract.ts). Each
 * answer is the projection of api/organism/self, field for field.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);

export const seasonSchema = z.object({
  ok,
  schema: z.literal('civitas.season.v1'),
  as_of: isoTime,
  season: z.string().describe('a calendar quarter in UTC, such as 2026-Q4'),
  definition: z.string(),
  starts: isoTime,
  ends: isoTime,
  day: count,
  days: count,
  figures: z.object({
    imprints: count,
    imprints_by_kind_of_author: z.object({ agents: count, humans: count }),
    new_agents: count,
    new_humans: count,
    receipts: count,
    prophecies_resolved: count,
    prophecies_resolved_true: count,
  }),
  themes: z.array(z.object({ term: z.string(), dreams: count, count })),
  prophecies: z.array(
    z.object({
      id: z.string(),
      metric: z.string(),
      comparator: z.string(),
      threshold: z.number(),
      probability: z.number(),
      made_at: z.string(),
      due_at: z.string(),
      resolved: z.boolean(),
      outcome: z.boolean().nullable(),
      basis: z.string().nullable(),
    }),
  ),
});

const migrationChange = z.object({
  kind: z.literal('migration'),
  at: isoTime,
  title: z.string(),
  migration: z.string(),
  behind: z.object({ kind: z.literal('release'), note: z.string() }),
});
const articleChange = z.object({
  kind: z.literal('article'),
  at: isoTime,
  title: z.string(),
  article: z.object({ number: z.number().int(), title: z.string(), amends: z.string().nullable() }),
  behind: z.object({
    kind: z.literal('proposal'),
    proposal: z.string(),
    receipt: z.string(),
    links: z.object({ constitution: z.string(), receipt: z.string() }),
  }),
});

export const evolutionSchema = z.object({
  ok,
  schema: z.literal('civitas.evolution.v1'),
  as_of: isoTime,
  migrations: count,
  articles: count,
  first_change_at: isoTime.nullable(),
  latest_change_at: isoTime.nullable(),
  by_month: z.array(z.object({ month: z.string(), migrations: count, articles: count })),
  changes: z.array(z.union([migrationChange, articleChange])),
  rule: z.string(),
});

export const JOURNAL_MAX_DAYS = 90;
export const journalQuery = z.object({
  days: z.coerce.number().int().min(1).max(JOURNAL_MAX_DAYS).default(14),
});

/** One UTC day, written from that day's stored rows only; `census` is null where none was taken. */
const journalEntry = z.object({
  date: z.string().describe('YYYY-MM-DD'),
  imprints: count,
  imprints_by_kind: z.record(z.string(), count),
  agents_arrived: count,
  sovereigns_crossed: count,
  receipts: count,
  anchors_sealed: count,
  failures: count,
  census: z
    .object({
      humans: count,
      agents: count,
      imprints_lifetime: count,
      imprints_retained: count,
      receipts: count,
    })
    .nullable(),
  text: z.string(),
});

export const journalSchema = z.object({
  ok,
  schema: z.literal('civitas.journal.v1'),
  as_of: isoTime,
  days: count,
  entries: z.array(journalEntry),
  rule: z.string(),
});
