/**
 * Cache-Control values by cache class (api/plugins/http-cache.ts, and the live pages). Public
 * answers are fresh for a shared cache (CDN) for a few seconds and may be served stale while it
 * revalidates; browsers revalidate every time (max-age=0) with the ETag, getting 304 when unchanged.
 * Never used on a personalised or cookie-setting response: those are `private` (the security
 * headers force `private, no-store` on any response that sets a cookie).
 */
export type CacheClass = 'public' | 'personal' | 'no-store';

export const PUBLIC_READ_CACHE = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';
/** Live pages read by anonymous visitors (no session, the default theme). */
export const PUBLIC_PAGE_CACHE = 'public, max-age=0, s-maxage=15, stale-while-revalidate=60';
export const PERSONAL_CACHE = 'private, no-cache';

export const CACHE_CONTROL: Record<CacheClass, string> = {
  public: PUBLIC_READ_CACHE,
  personal: PERSONAL_CACHE,
  'no-store': 'no-store',
};

/**
 * A live page whose anonymous render reads the Record alone (its imprints, counter and tallies, as
 * GET /imprint answers them) sets this header to 'record'. The site mount then keeps that render
 * while the Record's revision stands still (api/site/mount.ts) and never sends the header on.
 */
export const RENDERS_FROM = 'x-civitas-renders-from';

/**
 * How long a render that read live figures beside the Record (the home page's governance, forecasts,
 * orders and people) may be kept: the shared caches' own s-maxage in PUBLIC_PAGE_CACHE, so a kept
 * render is never older than what a CDN would serve anyway.
 */
export const LIVE_FIGURES_SECONDS = 15;
