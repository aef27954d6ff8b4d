/**
 * Who is signed in at an identity door (the doors' bodies are their contracts',
 * shared/identity/operations.ts).
 */
import type { FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';

export function signedIn(request: FastifyRequest) {
  if (!request.sovereign) throw new Refusal('identity_required');
  return request.sovereign;
}
