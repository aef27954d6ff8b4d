import { cacheControlForPersonalized } from './boundaries/headers/cache.ts';

/**
 * Who may keep an answer, by cache class: a route declares its class in its operation entry's `policy`
 * and api/plugins/http-cache.ts sets the Cache-Control; a page's class (`policy.page`) is set by the
 * site mount (api/site/page-cache.ts); no handler, page or component sets one by hand (a structure
 * test holds that). Public answers are for anyone: `public` live reads are fresh for a shared
 * cache (CDN) for a few seconds and may be served stale while it revalidates, browsers
 * revalidating every time (max-age=0) with the ETag; the `public-<age>` classes are fixed
 * lifetimes for answers that change slowly (feeds, cards, reference data). `private` is for one
 * recipient (shared_cache_audience: personalised views; set_cookie_replay: credential answers).
 * The security headers still force `private, no-store` on any answer that sets a cookie, is a 303
 * or is an error, whatever its class.
 */
export const CACHE_CONTROL = {
  /** Live reads: a shared cache keeps them 10 s and serves them stale while it revalidates. */
  public: 'public, max-age=0, s-maxage=10, stale-while-revalidate=60',
  /** Live pages read by anonymous visitors (no session, the default theme). */
  'public-page': 'public, max-age=0, s-maxage=15, stale-while-revalidate=60',
  'public-30s': 'public, max-age=30',
  'public-1m': 'public, max-age=60',
  'public-5m': 'public, max-age=300',
  'public-1h': 'public, max-age=3600',
  'public-1d': 'public, max-age=86400',
  /** The browser may keep it but asks before each use; no shared cache. */
  personal: 'private, no-cache',
  /** For its one recipient, kept by no one (shared_cache_audience, set_cookie_replay). */
  private: cacheControlForPersonalized(),
  /** Anyone may keep it but must ask before each use (an answer nobody gave a lifetime). */
  revalidate: 'no-cache',
  /** Computed on every request or carrying a secret: kept by no one. */
  'no-store': 'no-store',
} as const;

export type CacheClass = keyof typeof CACHE_CONTROL;

/**
 * A route's cache policy: one class for every request, or `{ anonymous }`: that class for a request
 * nothing personal can have shaped, and `private` for one that something personal may have shaped:
 * a session, a cookie or a credential header (decided from the request by api/plugins/http-cache.ts
 * and, for pages, the site mount: api/site/page-cache.ts), or one of the `personalQuery` parameters
 * (the answer to one visitor's form: `/receipt/{id}?recorded=N` says "your imprint was recorded").
 * A page's public class is read as its `{ anonymous }` form: every live page's layout reads the
 * session and the theme cookie.
 */
export type CachePolicy = CacheClass | { anonymous: CacheClass; personalQuery?: readonly string[] };

/** The Cache-Control one answer gets, and whether it is the shared form (which then varies on Cookie). */
export interface CacheDecision {
  value: string;
  varyCookie: boolean;
}

/**
 * The Cache-Control a policy gives one answer. `personal`: something personal may have shaped it (see
 * CachePolicy); `page`: the answer is a page, so a public class holds for its anonymous form only.
 */
export function cacheControlFor(policy: CachePolicy, personal: boolean, page: boolean): CacheDecision {
  const cacheClass = typeof policy === 'string' ? policy : policy.anonymous;
  const value = CACHE_CONTROL[cacheClass];
  const perRequest = typeof policy !== 'string' || (page && value.startsWith('public'));
  if (!perRequest) return { value, varyCookie: false };
  return personal ? { value: CACHE_CONTROL.private, varyCookie: false } : { value, varyCookie: true };
}

/** True when the request's query names one of the policy's `personalQuery` parameters (with a value). */
export function personalQueryIn(policy: CachePolicy, url: string): boolean {
  if (typeof policy === 'string' || !policy.personalQuery?.length) return false;
  const query = new URLSearchParams(url.split('?')[1]?.split('#')[0] ?? '');
  return policy.personalQuery.some((name) => Boolean(query.get(name)));
}

/**
 * A live page whose anonymous render reads the Record alone (its imprints, counter and tallies, as
 * GET /imprint answers them) sets this header to 'record'. The site mount then keeps that render
 * while the Record's revision stands still (api/site/mount.ts) and never sends the header on.
 */
export const RENDERS_FROM = 'x-civitas-renders-from';

/**
 * How long a render that read live figures beside the Record (the home page's governance, forecasts,
 * orders and people) may be kept: the shared caches' own s-maxage in the home page's class
 * (`public-page`), so a kept render is never older than what a CDN would serve anyway.
 */
export const LIVE_FIGURES_SECONDS = 15;
