/**
 * shared_cache_audience and set_cookie_replay: what a shared cache (CDN, proxy) may keep.
 * A personalized page, a proof card rendered for a session, or any response that sets a
 * credential cookie is for its one recipient only.
 */
import type { ExportRole } from '../keys.ts';

const PRIVATE_NO_STORE = 'private, no-store';

/** set_cookie_replay — `/initiate`, `/reconcile`, the identity-provider callback, witness receipt, `POST /theme`, `POST /signout`. */
export function cacheControlForCredentialResponse(): string {
  return PRIVATE_NO_STORE;
}

/** shared_cache_audience — personalized pages and cards (`/boundaries`, `/recovery`, `/abstentions`, `/constitution`, `/discrimination`, `/metabolism`). */
export function cacheControlForPersonalized(): string {
  return PRIVATE_NO_STORE;
}

/**
 * True when a Cache-Control value keeps a response out of shared caches: it must say both
 * `private` and `no-store` and grant nothing to shared caches (`public`, `s-maxage`).
 */
export function keepsOutOfSharedCaches(cacheControl: unknown): boolean {
  if (typeof cacheControl !== 'string') return false;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim().split('=')[0]);
  return (
    directives.includes('private') &&
    directives.includes('no-store') &&
    !directives.includes('public') &&
    !directives.includes('s-maxage')
  );
}

export const BOUNDARY_EXPORT_ROLES = {
  cacheControlForCredentialResponse: 'censused',
  cacheControlForPersonalized: 'censused',
  keepsOutOfSharedCaches: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
