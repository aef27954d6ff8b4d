import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { redactReceiptSubjects } from './redaction.ts';

/** The ledger names people only by public ref (receipt subjects) and, privately, in denials. */
export const ledgerPersonalData: FamilyDeclaration = {
  family: 'ledger',
  tables: [
    {
      table: 'anchor_chain_verified',
      personal: {},
      impersonal: ['keys', 'head'],
      notExported: 'the anchor chain verified so far: hashes and key ids, naming no one',
      disposition: 'keep',
      why: 'Kept: the point the anchor chain is verified through (a day, a hash, key ids).',
    },
    {
      table: 'receipts',
      personal: {
        subject: 'the public ref a step was about, e.g. `sovereign:<tag>`',
        subject_salt: "the salt of that subject's digest",
      },
      impersonal: ['id', 'step', 'leaf_hash', 'subject_digest'],
      disposition: 'keep',
      why: 'Receipts are the public log and are kept; the subject and its salt are deleted, so the receipt reads "redacted" and every proof still verifies.',
    },
    {
      table: 'denials',
      personal: { actor_ref: "the denied actor's raw id", actor_public: "the denied actor's public ref" },
      impersonal: ['receipt_id', 'denied_action', 'reason', 'actor_kind'],
      holder: { column: 'actor_ref', kind: 'actor_kind', publicTag: 'actor_public' },
      notExported: 'private steward columns; the denial receipts naming the tag are exported as receipts',
      disposition: 'keep',
      why: 'The denial is kept (it is a receipt); its actor columns are deleted.',
    },
    {
      table: 'anchors',
      personal: {},
      impersonal: ['root_hash', 'previous_anchor_hash', 'anchor_hash', 'key_id', 'signature', 'checkpoint'],
      disposition: 'keep',
      why: 'Signed tree heads; no person.',
    },
    {
      table: 'log_days',
      personal: {},
      impersonal: ['frontier'],
      disposition: 'keep',
      why: 'Sizes of daily logs and the hashes of their trees.',
    },
    {
      table: 'log_tiles',
      personal: {},
      impersonal: ['hashes'],
      disposition: 'keep',
      why: 'Hashes of the log trees (leaf hashes and the nodes above them); no person.',
    },
    {
      table: 'receipt_tallies',
      personal: {},
      impersonal: ['step'],
      disposition: 'keep',
      why: 'Counts of receipts per step kind (family.verb).',
    },
    {
      table: 'witnesses',
      personal: {},
      impersonal: ['name', 'public_key'],
      disposition: 'keep',
      why: 'Witness services and their keys; no person.',
    },
    {
      table: 'witness_marks',
      personal: {},
      impersonal: ['witness', 'signature_line', 'receipt_id', 'token_hash'],
      disposition: 'keep',
      why: "Witness services' signatures.",
    },
    {
      table: 'service_keys',
      personal: {},
      impersonal: ['name', 'value'],
      disposition: 'keep',
      why: "The service's own keys.",
    },
    {
      table: 'signing_keys',
      personal: {},
      impersonal: ['kid', 'private_jwk', 'public_jwk', 'created_at', 'retired_at'],
      disposition: 'keep',
      why: "The service's signing keys, active and retired.",
    },
    {
      table: 'civitas_migrations',
      personal: {},
      impersonal: ['name'],
      disposition: 'keep',
      why: 'Applied schema migrations.',
    },
  ],
  async export() {
    return {};
  },
  async erase(tx, subject, now) {
    // A tag shared by two sovereigns is one subject: both lose it, which errs on the side of privacy.
    const redacted = await redactReceiptSubjects(tx, {
      subjects: [subject.ref],
      actorRefs: [subject.id],
      at: now,
    });
    return { receipts: redacted };
  },
};
