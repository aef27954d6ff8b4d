/**
 * The ledger's pages with a JSON twin (/receipt/{id}, /ledger, /ledger/{id}, /verify/anchor-chain,
 * /witness, /witness/receipt/{token}): what each answers to `Accept: application/json`
 * (the handlers api/ledger/routes.ts binds). Kept beside ledger.ts for the same reason (shared/ledger/ ships alone).
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { listPageLinks, listPageQuery } from '../../paging.ts';
import { RECEIPT_ID, anchorSchema, receiptViewSchema } from './ledger.ts';

export const ok = z.literal(true);
const count = z.number().int().min(0);
const hex = z.string().describe('lowercase hex');
const day = z.string().describe('UTC date, YYYY-MM-DD');

export const ledgerQuery = z.object({
  ...listPageQuery(50, 100),
  before: z
    .string()
    .regex(RECEIPT_ID, 'before must be a receipt id')
    .optional()
    .describe('the older form of a next link: the receipts before this one'),
});

export const ledgerSchema = z.object({
  ok,
  totals: z.object({ receipts: count, days: count, sealed_days: count }),
  receipts: z.array(receiptViewSchema),
  ...listPageLinks,
  days: z.array(
    z.object({
      date: day,
      size: count,
      sealed: z.boolean(),
      root_hash: hex.nullable(),
      anchor_hash: hex.nullable(),
    }),
  ),
});

export const ledgerEntrySchema = z.object({
  ok,
  receipt: receiptViewSchema,
  day: z.object({ date: day, size: count, sealed: z.boolean() }),
  neighbours: z.object({ previous: z.string().nullable(), next: z.string().nullable() }),
  timeline: z.array(
    z.object({ at: isoTime, status: z.string(), title: z.string(), receipt_id: z.string().nullable() }),
  ),
});

export const anchorChainSchema = z.object({
  ok,
  key_name: z.string(),
  length: count,
  genesis: hex,
  head: hex.nullable(),
  verification: z.object({
    ok: z.boolean(),
    length: count,
    head: hex.nullable(),
    broken_at: count.nullable(),
    reason: z.string().nullable(),
  }),
  anchors: z
    .array(anchorSchema.extend({ anchor_hash: hex, sealed_at: isoTime }))
    .describe('one page of the chain, newest day first'),
  ...listPageLinks,
});

/** /verify/anchor-chain pages its anchors, newest day first (the verification covers the whole chain). */
export const anchorChainQuery = z.object(listPageQuery(60, 366));

/** /witness pages its registered witnesses by name. */
export const witnessesQuery = z.object(listPageQuery(50, 100));

export const witnessesSchema = z.object({
  ok,
  key_name: z.string(),
  latest_anchor: day.nullable(),
  witnesses: z.array(
    z.object({
      name: z.string(),
      public_key: z.string(),
      first_marked_at: isoTime,
      marks: count,
      latest_date: day.nullable(),
    }),
  ),
  ...listPageLinks,
  recent_marks: z.array(z.object({ witness: z.string(), date: day, marked_at: isoTime })),
  you: z
    .object({ witness: z.string() })
    .nullable()
    .describe('the witness this browser marked as, when it keeps a witness receipt'),
  how: z.array(z.string()),
});

export const witnessReceiptSchema = z.object({
  ok,
  witness: z.string(),
  date: day,
  signature_line: z.string(),
  marked_at: isoTime,
  receipt: receiptViewSchema.nullable(),
});
