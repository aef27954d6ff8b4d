/**
 * The organism's personal pages (/metabolism, /recovery, /discrimination and their cards) are kept
 * out of shared caches by their routes' cache class, `private` (shared_cache_audience). (Its
 * figures are computed on every request: their routes say `cache: 'no-store'`.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderPage } from '../pages.ts';

/** An answer that differs by cookie. */
export function keepPersonal(reply: FastifyReply): void {
  reply.header('vary', 'Cookie');
}

/** A page that differs by cookie (its route is `cache: 'private'`). */
export function personalPage() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    keepPersonal(reply);
    return renderPage(request, reply);
  };
}
