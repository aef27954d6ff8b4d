/**
 * The bodies of the identity doors that answer a browser's form: crossing, returning with a key,
 * reconciling, and a steward processing a data request. The router parses them after the
 * same-origin rule and the scope have spoken (api/router.ts); a form gets its refusal back on its
 * page (api/http.ts sendFormBack), the key never kept in the flash.
 */
import { z } from 'zod';
import { DATA_REQUEST_KINDS, callsignSchema } from '../contract.ts';

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

export const documented = { form: true } as const;

/** What each door answers a JSON caller (a form is sent on, or shown the page). */
const ok = z.literal(true);
export const signedInAs = {
  ok,
  tag: z.string(),
  ref: z.string().describe('sovereign:<tag>'),
  receipt_id: z.string(),
  next: z.string().describe('where a browser would be sent'),
};
export const crossed = z.object({
  ...signedInAs,
  key: z.string().describe('the Sovereign Key, shown this once: the way back in at /return'),
  receipt: z.string().describe('/begin/receipt/{receipt_id}'),
  hint: z.string(),
});
export const reconciled = z.object({
  ...signedInAs,
  provider_moved: z.boolean().describe("the provider identity moved to the key's sovereign"),
});
export const processed = z.object({
  ok,
  request: z.object({
    id: z.string(),
    kind: z.enum(DATA_REQUEST_KINDS),
    status: z.enum(['completed', 'declined']),
  }),
  erased: z
    .object({
      receipts_redacted: z.number().int().min(0),
      imprints_cleared: z.number().int().min(0),
      rows: z
        .record(z.string(), z.number().int().min(0))
        .describe("rows each family's declaration erased or moved, by what it holds"),
    })
    .nullable()
    .describe('a completed erasure: what it took out'),
  receipt_id: z.string(),
});
