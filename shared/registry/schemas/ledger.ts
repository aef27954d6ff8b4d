/**
 * The schemas of the ledger's operations (their entries: shared/registry/operations/ledger.ts;
 * both beside the registry, not in shared/ledger/, which imports nothing outside itself: it ships
 * in the relay client): receipts, their verification, anchors, inclusion proofs and witness marks.
 * Deep parts owned by the verifier (proof checks, denial receipts) are described by their named
 * fields and left open beyond them.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { isAnchorDate } from '../../ledger/anchor.ts';

/** Receipt ids: `rcpt_` and a ULID. */
export const RECEIPT_ID = /^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/;

export const ok = z.literal(true);
export const count = z.number().int().min(0);
export const hex = z.string().describe('lowercase hex');
export const receiptIdSchema = z
  .string()
  .regex(RECEIPT_ID, 'id must be rcpt_ followed by a 26-character ULID')
  .describe('receipt id, e.g. rcpt_01JD…');
export const anchorDateSchema = z
  .string()
  .refine(isAnchorDate, 'date must be a real UTC date written YYYY-MM-DD');
export const idParams = z.object({ id: receiptIdSchema });
export const dateParams = z.object({ date: anchorDateSchema });
/** The release of a fixture card (`/receipt/sov1.2.0-fixture/card.svg`). */
export const releaseParams = z.object({
  release: z.string().regex(/^[0-9a-z][0-9a-z.]{0,31}$/, 'release must be a version such as 1 or 1.2.0'),
});

/** The status of the change a receipt's step asked for, reported beside the receipt, never implied by it. */
export const changeStatusSchema = z.object({
  subject: z.string(),
  status: z.string(),
  detail: z.string(),
  as_of: isoTime,
});

/** The one receipt projection: an explicit allow-list of public fields. */
export const receiptViewSchema = z.object({
  id: z.string(),
  step: z.string(),
  subject: z.string().describe('the public subject, or "redacted" once erased'),
  subject_salt: z.string().nullable(),
  subject_digest: hex,
  subject_redacted: z.boolean(),
  recorded_at: isoTime,
  leaf_hash: hex,
  log: z.object({ date: z.string(), leaf_index: count }).nullable(),
  change_status: changeStatusSchema.nullable(),
  meaning: z.string(),
  links: z.object({
    page: z.string(),
    verify: z.string(),
    inclusion: z.string(),
    anchor: z.string(),
    card: z.string(),
    feed: z.string(),
    ledger: z.string(),
  }),
});

/** A sealed day's anchor as the verifier reads it. */
export const anchorSchema = z.object({
  date: z.string(),
  tree_size: count,
  root_hash: hex,
  previous_anchor_hash: hex,
  signature: z.string(),
  key_id: z.string(),
  checkpoint: z.string().describe('C2SP signed checkpoint'),
});

/** The signed head of a day not sealed yet: what an inclusion proof of an open day is against. */
export const signedHeadSchema = z.object({
  date: z.string(),
  tree_size: count,
  root_hash: hex,
  checkpoint: z.string(),
});

export const inclusionProof = z.object({
  date: z.string(),
  leaf_index: count,
  tree_size: count,
  leaf_hash: hex,
  inclusion_path: z.array(hex),
  root_hash: hex,
  sealed: z.boolean(),
  anchor: anchorSchema.nullable(),
  head: signedHeadSchema.nullable().describe('for an open day: the signed head the proof is against'),
});

/** denial_receipt projection: the refused action and the public form of the actor, never a raw id. */
export const denialReceiptSchema = z.object({
  id: z.string(),
  step: z.string(),
  subject: z.string(),
  denied_action: z.string(),
  reason: z.string(),
  recorded_at: isoTime,
  leaf_hash: hex,
  log: z.object({ date: z.string(), leaf_index: count }),
});

export const verificationSchema = z.object({
  ok: z.boolean(),
  receipt: receiptViewSchema,
  proof: inclusionProof.nullable(),
  verification: z
    .object({
      ok: z.boolean(),
      sealed: z.boolean(),
      checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })),
    })
    .nullable(),
  denial: denialReceiptSchema
    .nullable()
    .describe('for denial.* steps: who was refused what (public actor form only)'),
  key: z.object({ key_name: z.string(), public_jwk: z.unknown(), jwks: z.string() }),
  how: z.array(z.string()),
});

export const anchorViewSchema = anchorSchema.extend({
  ok,
  anchor_hash: hex,
  sealed_at: isoTime,
  key_name: z.string(),
  cosignatures: z.array(z.object({ witness: z.string(), signature_line: z.string(), marked_at: isoTime })),
});

export const witnessMarkAnswer = z.object({
  ok,
  already_marked: z.boolean(),
  witness: z.string(),
  date: z.string(),
  signature_line: z.string(),
  receipt_id: z.string(),
  receipt: z
    .looseObject({ id: z.string(), step: z.string(), recorded_at: isoTime, leaf_hash: hex })
    .nullable(),
  receipt_link: z.string().nullable().describe('shown once: opening it remembers you as this witness'),
  hint: z.string(),
});
