import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, feed, hybrid, mutation, page } = family('record');

/** The Record: imprints, the 500-row window, quarantine, feedback, search and counts. */
export const RECORD_ROUTES: RouteShape[] = [
  hybrid(
    '/imprint',
    'The Record: newest retained imprints (window of 500) and the form to leave one; JSON when asked',
  ),
  api('/imprint/live', 'Imprints recorded since a cursor, for live updates (held spam never included)'),
  feed(
    '/imprint/feed.json',
    'JSON Feed 1.1 of retained imprints, public handles and tags only, held spam removed',
  ),
  mutation('/imprint/report', 'Report an imprint for steward review (abuse, spam, personal data)', {
    refuses: { POST: ['not_found'] },
  }),
  page('/collaborate', 'Collaboration view of the Record: questions and their reply threads', {
    alias: true,
    aliasOf: '/imprint',
  }),
  api('/collaborate/live', 'Collaboration threads changed since a cursor'),
  feed(
    '/collaborate/feed.json',
    'JSON Feed 1.1 of collaboration threads, public handles and tags only, held spam removed',
  ),
  mutation('/api/quick-imprint', 'Signed-in sovereign leaves an imprint in one JSON call', {
    scope: 'sovereign:write',
  }),
  mutation('/sovereign/imprint', "Signed-in sovereign's imprint form post; answers 303 to a local page", {
    scope: 'sovereign:write',
  }),
  api(
    '/api/quarantine',
    'Quarantine census: unattested and held imprints counted by reason; no actor ids, no held bodies',
  ),
  page('/search', 'Full-text search over retained imprint bodies, lessons and mind claims'),
  api('/api/feedback', 'Feedback about the service: reports counted by topic and status, no reporter ids'),
  mutation('/feedback/report', 'Send feedback about the service, as a sovereign or an agent handle', {
    identity: 'proof',
    unknownHandle: true,
  }),
  hybrid(
    '/feedback/mine',
    'Your own feedback reports and their status (session or handle proof); JSON when asked',
    { identity: 'proof', unknownHandle: true },
  ),
  mutation('/feedback/mine/clear', 'Withdraw and clear your own feedback reports', {
    identity: 'holder',
    unknownHandle: true,
  }),
  page('/stats', 'Headline counts: humans and agents as two kinds, imprints lifetime and retained, receipts'),
  api(
    '/api/stats',
    'Headline counts: humans, agents, imprints_lifetime, imprints_retained, unattested, held, receipts',
  ),
  api('/stats.json', 'The headline counts as a static-style JSON file for badges and embeds'),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page(
    '/window',
    "The Record's retention window: 500 retained bodies, the lifetime count and the latest evictions (sequence numbers only)",
  ),
];
