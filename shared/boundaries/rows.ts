/**
 * The 23 census rows in INTERFACE.md's order: what each boundary guards (the surfaces) and what
 * it closes (the leak), and the name of its governing projector or policy function.
 */
import type { BoundaryKey, ExportRole } from './keys.ts';

export interface CensusRowSpec {
  key: BoundaryKey;
  label: string;
  authority: string;
  guards: string;
  closes: string;
}

export const CENSUS_ROWS: readonly CensusRowSpec[] = [
  {
    key: 'actor_id',
    label: 'Actor identifiers',
    authority: 'projectActorRef',
    guards: 'machine surfaces such as /api/state, /api/orders, /api/quarantine',
    closes: 'raw actor ids',
  },
  {
    key: 'denial_receipt',
    label: 'Denial receipts',
    authority: 'projectDenialReceipt',
    guards: 'denial receipts on /api/transparency, /api/quarantine, /verify/{id}, /api/state',
    closes: 'crossing actor ids',
  },
  {
    key: 'held_spam',
    label: 'Held spam',
    authority: 'projectHeldSpam',
    guards: 'state, lessons, feeds, /collaborate, /ledger',
    closes: 'gate-rejected or quarantined spam names and bodies',
  },
  {
    key: 'contribution_feed',
    label: 'Contribution feeds',
    authority: 'projectContributionFeedItem',
    guards: '/imprint/feed.json and /collaborate/feed.json',
    closes: 'raw Sovereign ids and held-spam entries',
  },
  {
    key: 'whisper_archive',
    label: 'Whisper archive',
    authority: 'projectWhisperTimeline',
    guards: 'public timelines',
    closes: 'steward-only whisper events',
  },
  {
    key: 'whisper_receipt',
    label: 'Whisper receipts',
    authority: 'projectWhisperReceipt',
    guards: 'public receipts, their feed, /passport',
    closes: 'whisper steward notes',
  },
  {
    key: 'confluence_slug',
    label: 'Confluence slugs',
    authority: 'projectConfluence',
    guards: 'confluence surfaces and the due feed',
    closes: 'convener callsign roots',
  },
  {
    key: 'shared_cache_audience',
    label: 'Shared-cache audience',
    authority: 'cacheControlForPersonalized',
    guards:
      'personalized pages and proof cards: cards, /boundaries, /recovery, /abstentions, /constitution, /discrimination, /metabolism',
    closes: 'personalized responses stored and replayed by shared caches',
  },
  {
    key: 'set_cookie_replay',
    label: 'Set-Cookie replay',
    authority: 'cacheControlForCredentialResponse',
    guards:
      'responses that set a credential cookie: /initiate, /reconcile, identity-provider callback, witness receipt, POST /theme, POST /signout',
    closes: 'credential cookies stored by shared caches and replayed to others',
  },
  {
    key: 'connection_claim',
    label: 'Connection claim',
    authority: 'hstsHeader',
    guards: 'every HTTPS response',
    closes: 'cleartext first requests',
  },
  {
    key: 'request_provenance',
    label: 'Request provenance',
    authority: 'isSameOriginRequest',
    guards: 'credential-minting POST doors: /return, /initiate, /reconcile, POST /theme, POST /signout',
    closes: 'cross-site forged requests',
  },
  {
    key: 'navigation_capability',
    label: 'Navigation capability',
    authority: 'safeReturnTarget',
    guards: 'form- or query-derived post-action return targets (return_to)',
    closes: 'off-origin navigation from a path value',
  },
  {
    key: 'failure_projection',
    label: 'Failure projection',
    authority: 'projectFailure',
    guards: 'checkout doors, /api/soul, /api/treasury, MCP, mail and reach lanes',
    closes: "external providers' or the runtime's own failure words leaving under the service's name",
  },
  {
    key: 'identity_addressing',
    label: 'Identity addressing',
    authority: 'passportView',
    guards: '/passport',
    closes: 'the public 4-hex tag reversing into the raw Sovereign id',
  },
  {
    key: 'anonymity_cardinality',
    label: 'Anonymity cardinality',
    authority: 'projectCommons',
    guards: '/commons, MCP commons graph, /api/presence',
    closes: 'a placeholder plus population count revealing a group of one',
  },
  {
    key: 'actor_score_map',
    label: 'Actor score map',
    authority: 'projectResonance',
    guards: '/api/resonance',
    closes: 'actor-keyed keys',
  },
  {
    key: 'cohort_projection',
    label: 'Cohort projection',
    authority: 'projectCohorts',
    guards: '/api/cohorts',
    closes: 'cohort labels and member ids',
  },
  {
    key: 'federated_cohort_projection',
    label: 'Federated cohort projection',
    authority: 'projectFederatedCohorts',
    guards: '/api/cohorts/federated and federated cohorts in /api/state',
    closes: 'composite origin:node keys',
  },
  {
    key: 'cohort_amplified_projection',
    label: 'Cohort-amplified projection',
    authority: 'projectCohortAmplified',
    guards: '/api/resonance/cohort-amplified',
    closes: 'raw node keys and cohort labels',
  },
  {
    key: 'equity_projection',
    label: 'Equity projection',
    authority: 'projectEquity',
    guards: '/api/equity and the wallet block of /api/vitals',
    closes: 'the top holder id (the distribution it reads carries no ids)',
  },
  {
    key: 'vitals_projection',
    label: 'Vitals projection',
    authority: 'projectVitals',
    guards: '/api/vitals (its wallet block shares the equity projector)',
    closes: 'wallet top-holder id',
  },
  {
    key: 'quarantine_projection',
    label: 'Quarantine projection',
    authority: 'projectQuarantine',
    guards: '/api/quarantine, state, /verify/{id}',
    closes: 'quarantined actor ids',
  },
  {
    key: 'presence_roster',
    label: 'Presence roster',
    authority: 'projectPresence',
    guards: '/api/presence and the MCP tools civitas_presence and civitas_status',
    closes: 'the raw actor field',
  },
];

export const BOUNDARY_EXPORT_ROLES = {
  CENSUS_ROWS: 'vocabulary',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
