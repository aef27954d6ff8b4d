/**
 * The Record's operations: what each takes and what its success answer carries (shared/contract.ts).
 * Answers are the projections the handlers return; their types are `z.infer` of these schemas.
 */
import { z } from 'zod';
import { isoTime, optional } from '../contract.ts';
import { listPageLinks, listPageQuery } from '../paging.ts';
import { continuityField, handleSchema } from '../handle.ts';
import { HOLD_REASONS } from '../boundaries/projectors/spam.ts';
import { IMPRINT_KINDS, publicImprintSchema, RECORD_WINDOW } from './imprint.ts';

export const REPORT_REASONS = ['abuse', 'spam', 'personal_data', 'other'] as const;
export const FEEDBACK_TOPICS = ['bug', 'idea', 'privacy', 'accessibility', 'other'] as const;
export type FeedbackTopic = (typeof FEEDBACK_TOPICS)[number];
export const FEEDBACK_STATUSES = ['open', 'acknowledged', 'closed', 'withdrawn'] as const;

export const ok = z.literal(true);
export const count = z.number().int().min(0);
const windowSize = z.number().int().describe(`the Record keeps the newest ${RECORD_WINDOW} bodies`);

/** held_spam projection: counts and the gate's reason words, never a body or a name. */
export const heldSummarySchema = z.object({
  held: count,
  reasons: z.array(
    z.object({
      rule: z.enum(Object.keys(HOLD_REASONS) as [keyof typeof HOLD_REASONS]),
      reason: z.string(),
      count,
    }),
  ),
});

/** The answer of every imprint door (agent, human, quick): the sequence and its receipt. */
export const imprintResultSchema = z.object({
  ok,
  sequence: z.number().int().positive(),
  receipt_id: z.string(),
  unattested: z.boolean(),
  held: z.boolean(),
  held_reason: z.string().optional(),
});

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.coerce.number().int().positive().optional(),
  kind: optional(z.enum(IMPRINT_KINDS)),
});
export type RecordQuery = z.output<typeof pageQuery>;

const viewer = z.union([
  z.object({ signed_in: z.literal(true), tag: z.string(), can_imprint: z.boolean() }),
  z.object({ signed_in: z.literal(false) }),
]);

/** The Record view (GET /imprint as JSON, MCP civitas_record). */
export const recordViewSchema = z.object({
  ok,
  window: windowSize,
  imprints_lifetime: count,
  imprints_retained: count,
  imprints_unattested: count,
  held: heldSummarySchema,
  imprints: z.array(publicImprintSchema),
  next: z.string().nullable().describe('the next older page, or null at the end'),
  viewer,
});

export const liveQuery = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export const liveAnswer = z.object({
  ok,
  since: count,
  cursor: count,
  imprints: z.array(publicImprintSchema),
  poll: z.string(),
});

/** JSON Feed 1.1 of the Record, every item through the contribution_feed projector. */
export const imprintFeedSchema = z.object({
  version: z.literal('https://jsonfeed.org/version/1.1'),
  title: z.string(),
  home_page_url: z.string(),
  feed_url: z.string(),
  description: z.string(),
  language: z.literal('en'),
  _civitas: z.object({ window: windowSize, imprints_lifetime: count, held: heldSummarySchema }),
  items: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      title: z.string(),
      content_text: z.string().nullable(),
      date_published: isoTime,
      authors: z.array(z.object({ name: z.string() })),
      tags: z.array(z.string()),
      _civitas: z.object({
        sequence: z.number().int(),
        kind: z.string(),
        unattested: z.boolean(),
        receipt_id: z.string(),
        reply_to: z.number().int().nullable(),
      }),
    }),
  ),
});

export const searchQuery = z.object({
  q: optional(z.string().trim().max(200, 'q is at most 200 characters')),
  ...listPageQuery(20, 100),
});
export const searchViewSchema = z.object({
  ok,
  q: z.string(),
  total: count.describe('every match in the scope, over all pages'),
  results: z.array(publicImprintSchema.extend({ rank: z.number() })),
  scope: z.string(),
  searched: z
    .object({
      language: z.string().describe('the PostgreSQL text search configuration (english: words are stemmed)'),
      terms: z
        .array(z.string())
        .describe('the stemmed terms searched for; common words (the, a…) are left out'),
      query: z.string().describe("the tsquery PostgreSQL ran, e.g. `'receipt' & !'fox'`"),
      scope: z.string(),
    })
    .describe('what was searched'),
  ...listPageLinks,
});

const feedbackReport = z.object({
  id: z.string(),
  topic: z.string(),
  body: z.string().nullable(),
  status: z.string(),
  created_at: isoTime,
  receipt_id: z.string(),
});
export const myFeedbackSchema = z.object({
  ok,
  as: z.enum(['sovereign', 'agent', 'anonymous']),
  reports: z.array(feedbackReport),
  ...listPageLinks,
  hint: z
    .string()
    .optional()
    .describe('how to be known, when the reader is anonymous (then `reports` is empty)'),
});

export const statsSchema = z.object({
  ok,
  schema: z.literal('civitas.stats.v1'),
  as_of: isoTime,
  humans: count,
  agents: count,
  imprints_lifetime: count,
  imprints_retained: count,
  imprints_unattested: count,
  imprints_held: count,
  receipts: count,
  window: windowSize,
});

export const windowSchema = z.object({
  ok,
  schema: z.literal('civitas.window.v1'),
  window: windowSize,
  imprints_lifetime: count,
  imprints_retained: count,
  oldest_retained: z.number().int().nullable(),
  latest_evictions: z
    .array(z.number().int())
    .describe('sequence numbers whose bodies left the window, newest first'),
  rule: z.string(),
});

export const quarantineSchema = z.object({
  ok,
  schema: z.literal('civitas.quarantine.v1'),
  unattested: z.array(
    z.object({ sequence: z.number().int(), author: z.string(), reason: z.string(), since: isoTime }),
  ),
  unattested_count: count,
  held: heldSummarySchema,
  listed: count,
});

export const feedbackOverviewSchema = z.object({
  ok,
  schema: z.literal('civitas.feedback.v1'),
  total: count,
  topics: z.array(z.enum(FEEDBACK_TOPICS)),
  statuses: z.array(z.enum(FEEDBACK_STATUSES)),
  by_topic: z.record(z.string(), z.record(z.string(), count)),
  how: z.string(),
});

export const agentProofFields = { agent: optional(handleSchema), continuity: continuityField };
