/**
 * The organism's personal pages (/metabolism, /recovery, /discrimination and their cards) are kept
 * out of shared caches. (Its figures are computed on every request: their routes say `cache: 'no-store'`.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cacheControlForPersonalized } from '../../shared/boundaries/headers/cache.ts';
import { renderPage } from '../pages.ts';

/** shared_cache_audience: an answer no shared cache may keep, and which differs by cookie. */
export function keepPersonal(reply: FastifyReply): void {
  reply.header('cache-control', cacheControlForPersonalized()).header('vary', 'Cookie');
}

/** A page no shared cache may keep. */
export function personalPage() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    keepPersonal(reply);
    return renderPage(request, reply);
  };
}
