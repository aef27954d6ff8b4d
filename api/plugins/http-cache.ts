import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CACHE_CONTROL, type CacheClass } from '../../shared/http-cache.ts';
import { noteRevalidated } from './compression.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    cacheClass?: CacheClass;
  }
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
 * HTTP caching by construction, after the security headers (which make every cookie-setting
 * response `private, no-store`):
 * - a route's cache class (defineRoute `cache`) sets its Cache-Control unless the handler chose one:
 *   `public` reads get a short shared lifetime a CDN can use, `personal` ones `private, no-cache`;
 * - every 200 GET that may be stored carries a strong ETag (a hash of the exact bytes sent), and a
 *   request whose If-None-Match names it gets 304 with no body. Nothing is kept between requests:
 *   the tag is computed from the answer just produced, so it can never be stale. A handler that
 *   serves bytes fixed for the process (/openapi.json), or one render shared by a burst of
 *   visitors (api/site/mount.ts), sets its own precomputed ETag instead.
 * A synchronous hook: it runs on every response.
 */
async function httpCache(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const cacheClass = request.routeOptions.config?.cacheClass;
    if (cacheClass && !reply.hasHeader('cache-control') && !reply.hasHeader('set-cookie'))
      reply.header('cache-control', CACHE_CONTROL[cacheClass]);
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
