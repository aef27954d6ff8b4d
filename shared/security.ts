/**
 * Header and navigation policy, pure so that the API's plugins and the boundary census's probes
 * use the same definitions (connection_claim, set_cookie_replay, request_provenance,
 * navigation_capability, shared_cache_audience).
 */

/** Two years, subdomains, preload-eligible. */
export const HSTS = 'max-age=63072000; includeSubDomains; preload';

/** No inline script, no third parties; inline styles only for Astro's scoped style attributes. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

/** Responses that set a credential cookie, and personalized pages. */
export const CREDENTIAL_CACHE_CONTROL = 'private, no-store';
export const PERSONALIZED_CACHE_CONTROL = 'private, no-store';

/** Credential-minting POST doors (INTERFACE.md Authentication item 5). */
export const CREDENTIAL_DOORS = ['/return', '/initiate', '/reconcile', '/theme', '/signout'] as const;

/**
 * A request is same-origin when its Origin header equals the service origin, or, with no Origin,
 * when the browser says `Sec-Fetch-Site: same-origin`. Anything else — including no evidence at all —
 * is refused: a credential door must never act on a forged cross-site request.
 */
export function isSameOriginRequest(input: { origin?: string; secFetchSite?: string; serviceOrigin: string; host?: string }): boolean {
  const allowed = new Set([input.serviceOrigin.toLowerCase()]);
  if (input.host) {
    allowed.add(`http://${input.host}`.toLowerCase());
    allowed.add(`https://${input.host}`.toLowerCase());
  }
  if (input.origin && input.origin !== 'null') return allowed.has(input.origin.toLowerCase());
  return input.secFetchSite === 'same-origin';
}

/**
 * A post-action return target must stay on this origin: a single leading slash, then no slash or
 * backslash, no scheme, no control characters — checked after percent-decoding too.
 * Returns the path to use, or null to refuse.
 */
export function safeReturnTarget(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) return null;
  let decoded = value;
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      return null;
    }
  }
  for (const candidate of [value, decoded]) {
    if (!candidate.startsWith('/')) return null;
    if (candidate.startsWith('//') || candidate.startsWith('/\\')) return null;
    if (/[\u0000-\u001f\u007f\\]/.test(candidate)) return null;
  }
  try {
    const resolved = new URL(value, 'https://civitas.invalid');
    if (resolved.origin !== 'https://civitas.invalid') return null;
    return resolved.pathname + resolved.search + resolved.hash;
  } catch {
    return null;
  }
}
