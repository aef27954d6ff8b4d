import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, mutation, page } = family('steward');

/** Stewardship: triage of held imprints, the lessons stewards record, and the steward-only views. */
export const STEWARD_ROUTES: RouteShape[] = [
  mutation(
    '/sovereign/triage',
    'Steward triage of a held imprint: release, keep held, dismiss, or open a court case',
    { scope: 'steward:write', refuses: { POST: ['conflict', 'not_found'] } },
  ),
  mutation('/steward/lesson', 'A steward records, corrects or retires a lesson', { scope: 'steward:write' }),
  page('/steward', 'Steward inbox: orders, pacts, held imprints and data requests awaiting a decision', {
    operator: true,
    scope: 'steward:write',
  }),
  page('/steward/held', 'Held imprints with their bodies, for triage', {
    operator: true,
    scope: 'steward:write',
  }),
  page('/steward/whispers', 'The whisper archive: steward-only notes and events', {
    operator: true,
    scope: 'steward:write',
  }),
  api('/api/hive/lessons', 'Lessons learned from non-quarantined imprints (collective learning)'),
];
