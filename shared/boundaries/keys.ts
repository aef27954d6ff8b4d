/**
 * The 23 boundary keys, in INTERFACE.md's order ("Boundary census"). The order is the contract:
 * the census rows, the page and the tests all follow it.
 */
export const BOUNDARY_KEYS = [
  'actor_id',
  'denial_receipt',
  'held_spam',
  'contribution_feed',
  'whisper_archive',
  'whisper_receipt',
  'confluence_slug',
  'shared_cache_audience',
  'set_cookie_replay',
  'connection_claim',
  'request_provenance',
  'navigation_capability',
  'failure_projection',
  'identity_addressing',
  'anonymity_cardinality',
  'actor_score_map',
  'cohort_projection',
  'federated_cohort_projection',
  'cohort_amplified_projection',
  'equity_projection',
  'vitals_projection',
  'quarantine_projection',
  'presence_roster',
] as const;

export type BoundaryKey = (typeof BOUNDARY_KEYS)[number];

/** The five boundaries that live in response headers and request checks rather than in a body. */
export const HEADER_BOUNDARY_KEYS = [
  'shared_cache_audience',
  'set_cookie_replay',
  'connection_claim',
  'request_provenance',
  'navigation_capability',
] as const satisfies readonly BoundaryKey[];

export type HeaderBoundaryKey = (typeof HEADER_BOUNDARY_KEYS)[number];

export function isHeaderBoundary(key: BoundaryKey): key is HeaderBoundaryKey {
  return (HEADER_BOUNDARY_KEYS as readonly string[]).includes(key);
}

/**
 * The four roles a tier-1 export may play (coverage.ts): `censused` is a row's authority,
 * `component` a helper projectors use, `vocabulary` types-as-values, constants and keys,
 * `resolver` picks a projector by key or runs the census.
 */
export const EXPORT_ROLES = ['censused', 'component', 'vocabulary', 'resolver'] as const;
export type ExportRole = (typeof EXPORT_ROLES)[number];

export const BOUNDARY_EXPORT_ROLES = {
  BOUNDARY_KEYS: 'vocabulary',
  HEADER_BOUNDARY_KEYS: 'vocabulary',
  isHeaderBoundary: 'vocabulary',
  EXPORT_ROLES: 'vocabulary',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
