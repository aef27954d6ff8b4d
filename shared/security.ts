/**
 * Header and navigation policy the API's plugins apply. The policy functions themselves live with
 * their boundaries (shared/boundaries/headers/*), so the census's probes and the plugins use one
 * definition: this module only re-exports them beside the service-wide constants.
 */
import { SITE_SCRIPT_HASHES } from './site-scripts.ts';

export { hstsHeader } from './boundaries/headers/transport.ts';
export {
  cacheControlForCredentialResponse,
  cacheControlForPersonalized,
} from './boundaries/headers/cache.ts';
export { isSameOriginRequest } from './boundaries/headers/provenance.ts';
export { safeReturnTarget } from './boundaries/headers/navigation.ts';

/**
 * No third parties and no arbitrary inline script: the site's two small enhancements are allowed by
 * their hashes (shared/site-scripts.ts); inline styles only for Astro's scoped style attributes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${SITE_SCRIPT_HASHES.join(' ')}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  // No page sets <base>: nothing may re-root its relative links (ASVS 5.0 V3.4).
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/** JSON answers load nothing and are never framed (the OWASP REST profile, with the page's own default). */
export const API_CONTENT_SECURITY_POLICY = "default-src 'self'; frame-ancestors 'none'";

/**
 * Cross-Origin-Resource-Policy of an answer: `same-origin` for everything, so no other site can
 * load this service's data or documents into its own page, except a successful image (the cards,
 * badges and social previews under *.svg and *.png exist to be embedded on other sites and in
 * link previews): `cross-origin`.
 */
export function crossOriginResourcePolicy(
  status: number,
  contentType: unknown,
): 'same-origin' | 'cross-origin' {
  const image = typeof contentType === 'string' && /^image\//i.test(contentType);
  return image && status < 400 ? 'cross-origin' : 'same-origin';
}

/** Credential-minting POST doors (INTERFACE.md Authentication item 5). */
export const CREDENTIAL_DOORS = ['/return', '/initiate', '/reconcile', '/theme', '/signout'] as const;
