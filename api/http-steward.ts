/** Steward surfaces, for every family that serves one (steward, operator, orders, calibration). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../shared/errors.ts';
import type { SignedIn } from './plugins/session.ts';

/**
 * The steward behind this request. The router already enforced `steward:write` from the registry;
 * this repeats it where the handler acts, so a shape edited without its scope still refuses.
 */
export function stewardOf(request: FastifyRequest): SignedIn {
  if (!request.sovereign) throw new Refusal('identity_required', { scope: 'steward:write' });
  if (!request.sovereign.scopes.includes('steward:write'))
    throw new Refusal('scope_required', { scope: 'steward:write' });
  return request.sovereign;
}

/** Steward surfaces are never indexed (their routes' cache class, `private`, keeps them out of caches). */
export function stewardOnly(reply: FastifyReply): void {
  reply.header('x-robots-tag', 'noindex, nofollow');
}

/** A steward page: JSON by Accept, else the Astro page (which reads the same JSON); stewards only, either way. */
export function stewardHybrid<T>(view: (request: FastifyRequest) => Promise<T>) {
  return {
    preHandler(request: FastifyRequest, reply: FastifyReply) {
      stewardOnly(reply);
      stewardOf(request);
    },
    handler: view,
    page: true as const,
  };
}
