/**
 * The bodies of the identity doors that answer a browser's form: crossing, returning with a key,
 * reconciling, and a steward processing a data request. Their handlers parse these themselves
 * (the credential doors check where the request came from first, the steward door who asks), so
 * the contracts only document them (`validate: false`).
 */
import { z } from 'zod';
import { defineContracts } from '../../contract.ts';
import { callsignSchema } from '../contract.ts';

const returnField = { return_to: z.string().max(2048).optional() };

/** A Sovereign Key as pasted. */
export const keySchema = z
  .string()
  .trim()
  .min(1, 'Paste your Sovereign Key (it starts with sk_).')
  .max(200, 'A Sovereign Key is 46 characters long.');

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

const documented = { form: true, validate: false } as const;

export const IDENTITY_DOOR_CONTRACTS = defineContracts({
  'POST /initiate': { body: initiateBody, ...documented },
  'POST /return': { body: returnBody, ...documented },
  'POST /reconcile': { body: returnBody, ...documented },
  'POST /steward/data-requests': { body: processBody, ...documented },
});
