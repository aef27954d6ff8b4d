import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  cacheControlFor,
  personalQueryIn,
  type CacheDecision,
  type CachePolicy,
} from '../../shared/http-cache.ts';
import { withVary } from './negotiation.ts';
import { noteRevalidated } from './compression.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    cacheClass?: CachePolicy;
  }
}

/**
 * A request something personal may have shaped: it carries a session, a cookie (a theme, a flash,
 * a witness mark), or a credential header (Authorization, an agent's continuity proof).
 */
export function personalRequest(request: FastifyRequest): boolean {
  return Boolean(
    request.sovereign ||
    request.headers.cookie ||
    request.headers.authorization ||
    request.headers['x-civitas-continuity'],
  );
}

/** The Cache-Control a route's policy gives this request's answer, and whether it varies on Cookie. */
function cacheControlOf(policy: CachePolicy, request: FastifyRequest, reply: FastifyReply): CacheDecision {
  const personal = personalRequest(request) || personalQueryIn(policy, request.url);
  // A page (a hybrid's HTML) may be shared in its anonymous form only: the layout reads the session
  // and the theme cookie, as the site mount's rule for pages says (api/site/page-cache.ts).
  return cacheControlFor(policy, personal, isHtml(reply));
}

function isHtml(reply: FastifyReply): boolean {
  return /^text\/html\b/.test(String(reply.getHeader('content-type') ?? ''));
}

/** True when an If-None-Match header names this entity tag (weak comparison, RFC 9110 13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/** The strong entity tag of exactly these bytes (RFC 9110 8.8.3). */
export function strongEtag(payload: string | Buffer): string {
  return `"${hash('sha1', payload, 'base64url')}"`;
}

function cacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): payload is string | Buffer {
  if (reply.statusCode !== 200 || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (reply.hasHeader('set-cookie')) return false;
  const cacheControl = reply.getHeader('cache-control');
  return cacheControl === undefined || !/no-store/i.test(String(cacheControl));
}

/**
 * HTTP caching by construction, after the security headers (which make every cookie-setting, 303
 * or error response `private, no-store`, whatever the class):
 * - a route's cache class (its operation entry's `policy.cache`, shared/http-cache.ts) sets its Cache-Control; a
 *   class that depends on the request (`{ anonymous }`) is decided here, from the request, and its
 *   shared form varies on Cookie; only the site mount's pages (their entries' page class, api/site/page-cache.ts) and stored
 *   files bring their own (api/site/mount.ts);
 * - every 200 GET that may be stored carries a strong ETag (a hash of the exact bytes sent), and a
 *   request whose If-None-Match names it gets 304 with no body. Nothing is kept between requests:
 *   the tag is computed from the answer just produced, so it can never be stale. A handler that
 *   serves bytes fixed for the process (/openapi.json), or one render shared by a burst of
 *   visitors (api/site/mount.ts), sets its own precomputed ETag instead.
 * A synchronous hook: it runs on every response.
 */
async function httpCache(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const policy = request.routeOptions.config?.cacheClass;
    if (policy && !reply.hasHeader('cache-control')) {
      const { value, varyCookie } = cacheControlOf(policy, request, reply);
      reply.header('cache-control', value);
      if (varyCookie) reply.header('vary', withVary(reply.getHeader('vary'), 'Cookie'));
    }
    if (!cacheable(request, reply, payload)) return done(null, payload);
    let etag = reply.getHeader('etag');
    if (typeof etag !== 'string') {
      etag = strongEtag(payload);
      reply.header('etag', etag);
    }
    if (!etagMatches(request.headers['if-none-match'], etag)) return done(null, payload);
    noteRevalidated(reply, payload);
    reply.code(304);
    reply.removeHeader('content-length');
    done(null, null);
  });
}

export default fp(httpCache, { name: 'civitas-http-cache', dependencies: ['civitas-security-headers'] });
