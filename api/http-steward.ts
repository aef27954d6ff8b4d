/** Steward surfaces, for every family that serves one (steward, operator, orders, calibration). */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Steward surfaces are never indexed (their routes' cache class, `private`, keeps them out of caches). */
export function stewardOnly(reply: FastifyReply): void {
  reply.header('x-robots-tag', 'noindex, nofollow');
}

/**
 * A steward page: JSON by Accept, else the Astro page (which reads the same JSON); stewards only,
 * either way: its entry's scope, `steward:write`, is enforced by the router before either runs.
 */
export function stewardHybrid<T>(view: (request: FastifyRequest) => Promise<T>) {
  return {
    preHandler(_request: FastifyRequest, reply: FastifyReply) {
      stewardOnly(reply);
    },
    handler: view,
    page: true as const,
  };
}
