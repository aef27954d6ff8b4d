/**
 * The identity pages with a JSON twin (/sovereign, /passport, /begin/receipt/{token},
 * /settings/data, /steward/data-requests): what each answers to `Accept: application/json`
 * (api/identity). Receipts leave through the whisper_receipt projector: the step, never a note.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { SCOPES } from '../../registry/types.ts';
import { DATA_REQUEST_KINDS, DATA_REQUEST_STATUSES } from '../contract.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const day = z.string().describe('UTC date, YYYY-MM-DD');

/**
 * `/passport?tag=` as JSON answers one passport, so it needs the tag (its form, 4 hex characters, is
 * checked by the handler). The page reads the same query itself: without a tag it shows the form.
 */
export const passportQuery = z.object({
  tag: z
    .string({ error: 'tag is required: a public tag is 4 hexadecimal characters, e.g. 3fa9' })
    .max(16)
    .describe('a public tag: 4 hexadecimal characters'),
});

/** A public receipt about someone (projectWhisperReceipt). */
export const whisperReceiptSchema = z.object({
  id: z.string(),
  step: z.string(),
  subject: z.string(),
  recorded_at: isoTime,
  leaf_hash: z.string(),
  log: z.object({ date: day, leaf_index: count }),
});

/** One of the owner's own data requests (listDataRequests in api/identity/data-requests.ts). */
export const dataRequestViewSchema = z.object({
  id: z.string(),
  kind: z.enum(DATA_REQUEST_KINDS),
  status: z.enum(DATA_REQUEST_STATUSES),
  created_at: isoTime,
  processed_at: isoTime.nullable(),
  note: z.string().nullable(),
  receipt_id: z.string(),
  download: z.string().nullable().describe('for a completed export: where to fetch it'),
});

export const ownerSchema = z.object({
  ok,
  schema: z.literal('civitas.sovereign.v1'),
  tag: z.string(),
  ref: z.string(),
  callsign: z.string().nullable(),
  callsign_visible: z.boolean(),
  joined_at: isoTime,
  scopes: z.array(z.enum(SCOPES)),
  email: z.object({ address: z.string().nullable(), verified: z.boolean(), pending: z.string().nullable() }),
  sign_in_methods: z.object({ key: z.boolean(), provider: z.boolean() }),
  imprints: z.object({
    total: count,
    retained: count,
    newest: z.array(
      z.object({
        sequence: z.number().int(),
        kind: z.string(),
        body: z.string().nullable(),
        retained: z.boolean(),
        recorded_at: isoTime,
        unattested: z.boolean(),
        held: z.boolean(),
        receipt_id: z.string(),
      }),
    ),
  }),
  receipts: z.array(whisperReceiptSchema),
  data_requests: z.array(dataRequestViewSchema),
  due: z.object({
    ics: z.string(),
    atom: z.string(),
    token_set: z.boolean(),
    subscription: z
      .object({ token: z.string(), ics: z.string(), atom: z.string() })
      .nullable()
      .describe('shown once, after the feed token was set (?feed=fl_…)'),
  }),
  links: z.object({ passport: z.string(), identity: z.string(), data: z.string() }),
});

export const passportSchema = z.object({
  ok,
  schema: z.literal('civitas.passport.v1'),
  tag: z.string().nullable(),
  status: z.enum(['addressable', 'unaddressable', 'unknown']),
  holder: z.object({ ref: z.string(), callsign: z.string().nullable(), joined_on: day }).nullable(),
  note: z.string(),
  standing: z.object({ imprints: count, receipts: count }).nullable(),
  receipts: z.array(whisperReceiptSchema),
});

export const firstCallReceiptSchema = z.object({
  ok,
  schema: z.literal('civitas.first-call-receipt.v1'),
  token: z.string(),
  receipt: whisperReceiptSchema,
  proof: z.object({ verify: z.string(), inclusion: z.string(), card: z.string() }),
  note: z.string(),
});

export const personalDataSchema = z.object({
  ok,
  schema: z.literal('civitas.personal-data.v1'),
  tag: z.string(),
  held: z.array(
    z.object({
      category: z.string(),
      what: z.string(),
      present: z.boolean(),
      count: count.optional(),
      active: count.optional(),
      bodies: count.optional(),
    }),
  ),
  requests: z.array(dataRequestViewSchema),
  actions: z.object({
    file: z.object({ method: z.string(), href: z.string(), fields: z.object({ kind: z.array(z.string()) }) }),
    list: z.object({ method: z.string(), href: z.string() }),
  }),
  erasure_means: z.string(),
});

const queueEntry = z.object({
  id: z.string(),
  kind: z.enum(DATA_REQUEST_KINDS),
  status: z.string(),
  requester: z.string().describe('the public ref, or "redacted" once erased'),
  created_at: isoTime,
  processed_at: isoTime.nullable(),
  processed_by: z.string().nullable(),
  note: z.string().nullable(),
  receipt_id: z.string(),
});
export const dataRequestQueueSchema = z.object({
  ok,
  schema: z.literal('civitas.data-requests.v1'),
  pending: z.array(queueEntry),
  processed: z.array(queueEntry),
  actions: z.object({
    process: z.object({
      method: z.string(),
      href: z.string(),
      fields: z.object({ id: z.string(), action: z.array(z.string()), note: z.string() }),
    }),
  }),
});
