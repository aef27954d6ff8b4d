/**
 * What the identity doors accept: their bodies and queries, and who is signed in.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Refusal } from '../../shared/errors.ts';

export { initiateBody, processBody, returnBody } from '../../shared/identity/contract/doors.ts';
export const tagQuery = z.object({ tag: z.string().max(16).optional() });

/** The body of a POST as an object (forms and JSON alike); anything else is an empty object. */
export const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body)
    ? (request.body as Record<string, unknown>)
    : {};

export function signedIn(request: FastifyRequest) {
  if (!request.sovereign) throw new Refusal('identity_required');
  return request.sovereign;
}
