/**
 * How the organism's figures are served: each is computed from stored data on every request, so
 * its answer is `no-store`; the personal pages (/metabolism, /recovery, /discrimination and their
 * cards) are kept out of shared caches.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cacheControlForPersonalized } from '../../shared/boundaries/headers/cache.ts';
import { renderPage } from '../pages.ts';

/** Live figures: recomputed on every request, never replayed from a cache. */
export function live<T>(compute: (request: FastifyRequest) => Promise<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = await compute(request);
    reply.header('cache-control', 'no-store');
    return body;
  };
}

/** shared_cache_audience: a page no shared cache may keep. */
export function personalPage() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', cacheControlForPersonalized()).header('vary', 'Cookie');
    return renderPage(request, reply);
  };
}
