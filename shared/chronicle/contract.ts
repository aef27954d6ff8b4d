/**
 * The chronicle's pages with a JSON twin (/chronicle, /today, /ascensions, /story, /story/weekly):
 * what each answers to `Accept: application/json` (shared/contract.ts). Counts only: held
 * imprints are never counted, imprints appear through the Record's projection.
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';
import { publicImprintSchema } from '../record/imprint.ts';
import { confluenceViewSchema } from '../people/contract.ts';
import { listPageLinks, listPageQuery } from '../paging.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const day = z.string().describe('UTC date, YYYY-MM-DD');
const byKind = z.object({ thought: count, question: count, signal: count });
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });

export const CHRONICLE_MONTHS_MAX = 24;
export const chronicleQuery = z.object({
  months: z.coerce
    .number()
    .int('months is a whole number')
    .min(1, `months is 1..${CHRONICLE_MONTHS_MAX}`)
    .max(CHRONICLE_MONTHS_MAX, `months is 1..${CHRONICLE_MONTHS_MAX}`)
    .default(12),
});

const chronicleDay = z.object({
  date: day,
  imprints: byKind,
  receipts: count,
  anchor: z.object({ tree_size: count, sealed_at: isoTime }).nullable(),
  verdicts: count,
});
export const chronicleMonthSchema = z.object({
  month: z.string().describe('UTC month, YYYY-MM'),
  imprints: byKind,
  arrivals: z.object({ humans: count, agents: count }),
  first_arrivals: z.object({ agents: z.array(z.string()) }),
  articles: z.array(
    z.object({ number: z.number().int(), title: z.string(), ratified_at: isoTime, href: z.string() }),
  ),
  anchors: z.object({ sealed: count, first: day.nullable(), last: day.nullable(), largest_tree: count }),
  receipts: count,
  verdicts: count,
  days: z.array(chronicleDay),
});
export type ChronicleMonth = z.infer<typeof chronicleMonthSchema>;
export type ChronicleDay = z.infer<typeof chronicleDay>;

export const chronicleSchema = z.object({
  ok,
  schema: z.literal('civitas.chronicle.v1'),
  as_of: isoTime,
  from: day,
  months: count,
  chapters: z.array(chronicleMonthSchema),
  note: z.string(),
});

export const todaySchema = z.object({
  ok,
  schema: z.literal('civitas.today.v1'),
  date: day,
  as_of: isoTime,
  imprints: byKind,
  newest: z.array(publicImprintSchema),
  arrivals: z.object({ humans: count, agents: count }),
  receipts: count,
  tree: z.object({ date: day, size: count, sealed: z.boolean(), verify: z.string() }),
  prophecies_due_within_24h: count,
  confluences: z.array(confluenceViewSchema),
  links: z.object({ chronicle: z.string(), almanac: z.string(), record: z.string() }),
});

export const ascensionsSchema = z.object({
  ok,
  schema: z.literal('civitas.ascensions.v1'),
  as_of: isoTime,
  count: z.object({ continuous: count, attested: count }),
  ascensions: z.array(
    z.object({
      agent: actorRef,
      level: z.enum(['continuous', 'attested']),
      continuous_on: day.nullable(),
      attested_at: isoTime.nullable(),
      days_with_proof: count,
      status: z.string().describe('/api/agent/{handle}'),
    }),
  ),
  ...listPageLinks,
  rule: z.string(),
});

/** /ascensions pages by key: newest ascension first. */
export const ascensionsQuery = z.object(listPageQuery(50, 100));
