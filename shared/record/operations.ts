/**
 * The record operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { optional, returnTo } from '../contract.ts';
import { listPageQuery } from '../paging.ts';
import { operations } from '../registry/operation.ts';
import {
  pageQuery,
  recordViewSchema,
  liveQuery,
  liveAnswer,
  imprintFeedSchema,
  REPORT_REASONS,
  ok,
  imprintResultSchema,
  quarantineSchema,
  searchQuery,
  searchViewSchema,
  feedbackOverviewSchema,
  FEEDBACK_TOPICS,
  agentProofFields,
  myFeedbackSchema,
  count,
  statsSchema,
  windowSchema,
} from './contract.ts';
import { imprintFields, formImprintFields } from './imprint.ts';

const { api, feed, hybrid, mutation, page } = operations('record');

/** The Record: imprints, the 500-row window, quarantine, feedback, search and counts. */
export const RECORD_OPERATIONS = [
  hybrid(
    '/imprint',
    'The Record: newest retained imprints (window of 500) and the form to leave one; JSON when asked',
    {
      GET: {
        query: pageQuery,
        response: recordViewSchema,
        policy: { cache: { anonymous: 'revalidate' }, page: { anonymous: 'public-page' } },
      },
    },
  ),
  api('/imprint/live', 'Imprints recorded since a cursor, for live updates (held spam never included)', {
    GET: { query: liveQuery, response: liveAnswer },
  }),
  feed(
    '/imprint/feed.json',
    'JSON Feed 1.1 of retained imprints, public handles and tags only, held spam removed',
    { GET: { response: imprintFeedSchema, policy: { cache: 'public-30s' } } },
  ),
  mutation('/imprint/report', 'Report an imprint for steward review (abuse, spam, personal data)', {
    refuses: { POST: ['not_found'] },
    POST: {
      body: z.object({
        sequence: z.coerce.number().int().positive(),
        reason: z.enum(REPORT_REASONS),
        detail: optional(z.string().trim().max(1000, 'detail is at most 1000 characters')),
        return_to: returnTo,
      }),
      form: true,
      response: z.object({
        ok,
        report_id: z.string(),
        sequence: z.number().int(),
        status: z.literal('open'),
        receipt_id: z.string(),
      }),
    },
  }),
  page('/collaborate', 'Collaboration view of the Record: questions and their reply threads', {
    alias: true,
    aliasOf: '/imprint',
    GET: { policy: { cache: 'revalidate' } },
  }),
  api('/collaborate/live', 'Collaboration threads changed since a cursor', {
    GET: { query: liveQuery, response: liveAnswer },
  }),
  feed(
    '/collaborate/feed.json',
    'JSON Feed 1.1 of collaboration threads, public handles and tags only, held spam removed',
    { GET: { response: imprintFeedSchema, policy: { cache: 'public-30s' } } },
  ),
  mutation('/api/quick-imprint', 'Signed-in sovereign leaves an imprint in one JSON call', {
    scope: 'sovereign:write',
    POST: { body: z.object(imprintFields), response: imprintResultSchema },
  }),
  mutation('/sovereign/imprint', "Signed-in sovereign's imprint form post; answers 303 to a local page", {
    scope: 'sovereign:write',
    POST: {
      body: z.object({ ...formImprintFields, return_to: returnTo }),
      form: true,
      response: imprintResultSchema,
    },
  }),
  api(
    '/api/quarantine',
    'Quarantine census: unattested and held imprints counted by reason; no actor ids, no held bodies',
    { GET: { response: quarantineSchema } },
  ),
  page('/search', 'Full-text search over retained imprint bodies, lessons and mind claims', {
    GET: { query: searchQuery, response: searchViewSchema, policy: { cache: 'revalidate' } },
  }),
  api('/api/feedback', 'Feedback about the service: reports counted by topic and status, no reporter ids', {
    GET: { response: feedbackOverviewSchema },
  }),
  mutation('/feedback/report', 'Send feedback about the service, as a sovereign or an agent handle', {
    identity: 'proof',
    unknownHandle: true,
    POST: {
      body: z.object({
        topic: z.enum(FEEDBACK_TOPICS),
        body: z.string().trim().min(1, 'body must not be empty').max(4000, 'body is at most 4000 characters'),
        ...agentProofFields,
        return_to: returnTo,
      }),
      form: true,
      response: z.object({
        ok,
        feedback_id: z.string(),
        topic: z.enum(FEEDBACK_TOPICS),
        status: z.literal('open'),
        receipt_id: z.string(),
        mine: z.string().nullable(),
      }),
    },
  }),
  hybrid(
    '/feedback/mine',
    'Your own feedback reports and their status (session or handle proof); JSON when asked',
    {
      identity: 'proof',
      unknownHandle: true,
      // One page of the reporter's reports (`limit` 50 unless asked, at most 200).
      GET: {
        query: z.object({ agent: agentProofFields.agent, ...listPageQuery(50, 200) }),
        response: myFeedbackSchema,
      },
    },
  ),
  mutation('/feedback/mine/clear', 'Withdraw and clear your own feedback reports', {
    identity: 'holder',
    unknownHandle: true,
    POST: {
      body: z.object({ ...agentProofFields, return_to: returnTo }),
      form: true,
      response: z.object({ ok, cleared: count, receipt_id: z.string() }),
    },
  }),
  page(
    '/stats',
    'Headline counts: humans and agents as two kinds, imprints lifetime and retained, receipts',
    { GET: { policy: { cache: { anonymous: 'public-30s' } } } },
  ),
  api(
    '/api/stats',
    'Headline counts: humans, agents, imprints_lifetime, imprints_retained, unattested, held, receipts',
    { GET: { response: statsSchema, policy: { cache: 'public' } } },
  ),
  api('/stats.json', 'The headline counts as a static-style JSON file for badges and embeds', {
    GET: { response: statsSchema, policy: { cache: 'public-1m' } },
  }),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page(
    '/window',
    "The Record's retention window: 500 retained bodies, the lifetime count and the latest evictions (sequence numbers only)",
    { GET: { response: windowSchema, policy: { cache: 'revalidate' } } },
  ),
];
