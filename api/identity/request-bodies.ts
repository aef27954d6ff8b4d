/**
 * What the identity doors accept: their bodies and queries, and who is signed in.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Refusal } from '../../shared/errors.ts';
import { callsignSchema, keySchema } from './service.ts';

const returnField = { return_to: z.string().max(2048).optional() };

export const initiateBody = z.object({ callsign: callsignSchema.optional(), ...returnField });
export const returnBody = z.object({ key: keySchema, ...returnField });
export const processBody = z.object({
  id: z.string().trim().min(1).max(64),
  action: z.enum(['complete', 'decline']),
  note: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((v) => (v ? v : null)),
  ...returnField,
});
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
