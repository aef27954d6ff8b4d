/**
 * What the identity doors accept: their bodies and queries, and who is signed in.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Refusal } from '../../shared/errors.ts';

export { initiateBody, processBody, returnBody } from '../../shared/identity/contract/doors.ts';
export const tagQuery = z.object({ tag: z.string().max(16).optional() });

export function signedIn(request: FastifyRequest) {
  if (!request.sovereign) throw new Refusal('identity_required');
  return request.sovereign;
}
