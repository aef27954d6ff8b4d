import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  API_CONTENT_SECURITY_POLICY,
  CONTENT_SECURITY_POLICY,
  cacheControlForCredentialResponse,
  crossOriginResourcePolicy,
  hstsHeader,
} from '../../shared/security.ts';
import { keepsOutOfSharedCaches } from '../../shared/boundaries/headers/cache.ts';

/** What every answer carries, data or document (connection_claim, no sniffing, no referrer leak). */
const EVERY_RESPONSE: Readonly<Record<string, string>> = Object.freeze({
  'strict-transport-security': hstsHeader(),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
});

/**
 * A JSON answer is data, never a document a browser runs: it loads nothing and must not be framed,
 * so its policy is the short one (API_CONTENT_SECURITY_POLICY). The document-only headers
 * (framing, opener, permissions, the page CSP) go on everything else — HTML, SVG, feeds with
 * their stylesheets — where they mean something. Each set is one frozen object, built once per
 * process and set in one call; a CSP the handler chose itself is kept. DATA_ANSWER_HEADERS is
 * everything the hook sets on a JSON answer (the liveness lane sends it too: api/health/liveness.ts).
 */
export const DATA_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...EVERY_RESPONSE,
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy': API_CONTENT_SECURITY_POLICY,
});
const DOCUMENT_RESPONSE: Readonly<Record<string, string>> = Object.freeze({
  ...EVERY_RESPONSE,
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
});

export interface SecurityHeadersOptions {
  /** True for a request whose answer another server made and this one passes on as it came. */
  relayed?: (request: FastifyRequest) => boolean;
}

function isData(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^application\/([\w.-]+\+)?json\b/.test(contentType);
}

/**
 * Headers every response carries (connection_claim and friends), and three cache rules: any response
 * that sets a cookie (set_cookie_replay), any 303 (a form's answer, or a page sending its visitor on:
 * where it sends them is for that one request), and any error answer (a 404, a 429, a 500: what it
 * says holds for one request, not for everyone a shared cache would hand it to), is `private, no-store`.
 * Cross-Origin-Resource-Policy says who may load the bytes: this origin only, except images
 * (cards, badges, social previews), which are made to be embedded elsewhere. Applied by
 * construction in onSend, not remembered route by route; it runs before the route's cache class
 * (api/plugins/http-cache.ts), which only fills a Cache-Control still missing. A synchronous hook:
 * it runs on every response, and an async one would cost a promise and a microtask each time.
 *
 * The one-origin server (api/app.ts) and the split deploy's site server (api/site/server.ts) both
 * register this plugin, so a page, an asset or an error answer carries the same headers from
 * either. The site server names the answers it relays from the API (`relayed`): those keep the
 * API's own headers, set by this same hook there.
 */
async function securityHeaders(app: FastifyInstance, options: SecurityHeadersOptions) {
  const relayed = options.relayed;
  app.addHook('onSend', (request, reply, payload, done) => {
    if (relayed?.(request)) return done(null, payload);
    const type = reply.getHeader('content-type');
    const data = isData(type);
    reply.headers(data ? EVERY_RESPONSE : DOCUMENT_RESPONSE);
    reply.header('cross-origin-resource-policy', crossOriginResourcePolicy(reply.statusCode, type));
    if (!reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', data ? API_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY);
    if (reply.hasHeader('set-cookie') || reply.statusCode === 303)
      reply.header('cache-control', cacheControlForCredentialResponse());
    else if (reply.statusCode >= 400 && !keepsOutOfSharedCaches(reply.getHeader('cache-control')))
      reply.header('cache-control', cacheControlForCredentialResponse());
    done(null, payload);
  });
}

export default fp(securityHeaders, { name: 'civitas-security-headers' });
