/**
 * The standalone receipt verifier: what an outsider runs to check a civitas receipt with nothing
 * but the published algorithm. It depends only on the files of shared/ledger (which use WebCrypto
 * and TextEncoder, nothing else), so it can be copied or bundled into a browser page or the
 * dependency-free relay client unchanged.
 *
 * Wire shapes (hashes lowercase hex):
 *   receipt         { id, step, subject, subject_salt, subject_digest, subject_redacted, recorded_at,
 *                     leaf_hash, log: { date, leaf_index }, change_status }
 *   inclusion proof { date, leaf_index, tree_size, leaf_hash, inclusion_path: string[], root_hash,
 *                     sealed, anchor? }
 *   anchor          { date, tree_size, root_hash, previous_anchor_hash, signature, key_id, checkpoint }
 *
 * Checks, in order:
 *   subject            SHA-256(subject_salt || subject) equals subject_digest — or, for a receipt whose
 *                      subject was erased (subject_redacted: true, no salt), noted as redacted: the
 *                      digest still binds the leaf, only the subject's words are gone
 *   leaf_hash          SHA-256(0x00 || canonical receipt data) equals the receipt's leaf_hash
 *   receipt_in_proof   the proof is for this receipt: same leaf_hash, date and leaf_index
 *   inclusion          RFC 9162 §2.1.3.2: the path leads from the recomputed leaf to root_hash
 * and once the day is sealed (proof.sealed, or an anchor supplied):
 *   anchor_root        the anchor is for the same date, tree_size and root_hash as the proof
 *   anchor_signature   the anchor's Ed25519 signature verifies with the log's public key (given a
 *                      JWKS, the key whose kid is the anchor's key_id: old days keep their old key)
 *   anchor_checkpoint  its C2SP checkpoint is signed by the same key and states the same size and root
 * `ok` is true only when every check ran and passed. A sealed proof checked without a public key is
 * not ok: the anchor is only as good as its signature. An unsealed proof can be ok (`sealed: false`)
 * — it then shows the receipt is in the tree the log currently claims, not yet in a signed one.
 */
import { fromHex, isHashHex, receiptLeafHash, subjectDigest, toHex } from './hash.ts';
import { verifyInclusion } from './inclusion.ts';
import { anchorProblem, keyForAnchor, verifyAnchorSignature, verifyCheckpoint } from './anchor.ts';
import type { Anchor, Ed25519Jwk } from './anchor.ts';

export interface WireReceipt {
  id: string;
  step: string;
  /** the public subject, or "redacted" once erased */
  subject: string;
  /** 32 lowercase hex; null once the subject was erased */
  subject_salt: string | null;
  subject_digest: string;
  subject_redacted: boolean;
  recorded_at: string;
  leaf_hash: string;
  log: { date: string; leaf_index: number } | null;
  change_status: unknown;
}

export interface WireInclusionProof {
  date: string;
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  inclusion_path: string[];
  root_hash: string;
  sealed: boolean;
  anchor?: Anchor | null;
}

export interface VerificationCheck {
  name:
    | 'subject'
    | 'leaf_hash'
    | 'receipt_in_proof'
    | 'inclusion'
    | 'anchor_root'
    | 'anchor_signature'
    | 'anchor_checkpoint';
  ok: boolean;
  detail: string;
}

export interface ReceiptVerification {
  ok: boolean;
  /** whether the proof was checked against a sealed (anchored) day */
  sealed: boolean;
  checks: VerificationCheck[];
}

export interface VerifyReceiptInput {
  receipt: WireReceipt;
  proof: WireInclusionProof;
  /** the day's anchor, e.g. from /verify/anchor/{date}; defaults to proof.anchor */
  anchor?: Anchor | null;
  /** the log's public key (Ed25519 JWK, as published in the JWKS) */
  publicJwk?: Ed25519Jwk | null;
  /** or the JWKS's keys: the anchor is checked with the one its key_id names (keys rotate) */
  publicJwks?: readonly Ed25519Jwk[] | null;
  /** if given, the checkpoint must be signed under this key name */
  keyName?: string;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export async function verifyReceiptProof(input: VerifyReceiptInput): Promise<ReceiptVerification> {
  const checks: VerificationCheck[] = [];
  const add = (name: VerificationCheck['name'], ok: boolean, detail: string): boolean => {
    checks.push({ name, ok, detail });
    return ok;
  };
  const { receipt, proof } = input ?? ({} as VerifyReceiptInput);

  // (0) the published subject is the one the leaf commits to (unless it was erased)
  try {
    if (receipt.subject_redacted === true) {
      add(
        'subject',
        receipt.subject_salt === null || receipt.subject_salt === undefined,
        receipt.subject_salt == null
          ? 'subject erased; the leaf still commits to its digest'
          : 'a redacted receipt must not publish a salt',
      );
    } else {
      const digest = await subjectDigest(receipt.subject, receipt.subject_salt as string);
      if (digest === receipt.subject_digest)
        add('subject', true, `SHA-256(subject_salt || subject) = ${digest}`);
      else
        add('subject', false, `subject hashes to ${digest}, receipt says ${String(receipt.subject_digest)}`);
    }
  } catch (e) {
    add('subject', false, `subject or salt is malformed: ${message(e)}`);
  }

  // (a) the leaf hash recomputes from the receipt's canonical data
  let leaf: string | null = null;
  try {
    leaf = toHex(await receiptLeafHash(receipt));
    if (receipt.leaf_hash === leaf) add('leaf_hash', true, `SHA-256(0x00 || receipt data) = ${leaf}`);
    else add('leaf_hash', false, `receipt data hashes to ${leaf}, receipt says ${String(receipt.leaf_hash)}`);
  } catch (e) {
    add('leaf_hash', false, `receipt is malformed: ${message(e)}`);
  }

  const proofIsObject = !!proof && typeof proof === 'object';
  if (!proofIsObject) {
    add('receipt_in_proof', false, 'no inclusion proof supplied');
  } else {
    const log = receipt && typeof receipt === 'object' ? receipt.log : null;
    const problems: string[] = [];
    if (!log || typeof log !== 'object') problems.push('receipt has no log position');
    else {
      if (proof.date !== log.date)
        problems.push(`proof date ${String(proof.date)} ≠ receipt date ${String(log.date)}`);
      if (proof.leaf_index !== log.leaf_index)
        problems.push(
          `proof leaf_index ${String(proof.leaf_index)} ≠ receipt leaf_index ${String(log.leaf_index)}`,
        );
    }
    if (leaf !== null && proof.leaf_hash !== leaf)
      problems.push(`proof leaf_hash ${String(proof.leaf_hash)} ≠ recomputed ${leaf}`);
    add(
      'receipt_in_proof',
      problems.length === 0,
      problems.length === 0 ? `leaf ${proof.leaf_index} of ${proof.date}` : problems.join('; '),
    );
  }

  // (b) the inclusion path leads from the recomputed leaf to root_hash
  if (proofIsObject) {
    let included = false;
    if (leaf !== null) {
      try {
        included = await verifyInclusion({
          leaf_index: proof.leaf_index,
          tree_size: proof.tree_size,
          leaf_hash: fromHex(leaf),
          inclusion_path: proof.inclusion_path,
          root_hash: proof.root_hash,
        });
      } catch {
        included = false;
      }
    }
    add(
      'inclusion',
      included,
      included
        ? `path of ${proof.inclusion_path.length} hashes leads to ${proof.root_hash} (tree size ${proof.tree_size})`
        : leaf === null
          ? 'cannot check inclusion without a well-formed receipt'
          : 'the inclusion path does not lead to root_hash for this leaf index and tree size',
    );
  } else {
    add('inclusion', false, 'no inclusion proof supplied');
  }

  // (c) once sealed: the anchor states this root, and is signed
  const anchor = input?.anchor ?? (proofIsObject ? proof.anchor : null) ?? null;
  const sealed = anchor !== null || (proofIsObject && proof.sealed === true);
  if (sealed) {
    const problem =
      anchor === null ? 'the proof says the day is sealed but no anchor was supplied' : anchorProblem(anchor);
    if (problem || anchor === null) {
      add('anchor_root', false, problem ?? 'no anchor');
      add('anchor_signature', false, 'no well-formed anchor to verify');
    } else {
      const mismatches: string[] = [];
      if (proofIsObject) {
        if (anchor.date !== proof.date)
          mismatches.push(`anchor date ${anchor.date} ≠ proof date ${String(proof.date)}`);
        if (anchor.tree_size !== proof.tree_size)
          mismatches.push(
            `anchor tree_size ${anchor.tree_size} ≠ proof tree_size ${String(proof.tree_size)}`,
          );
        if (anchor.root_hash !== proof.root_hash)
          mismatches.push(
            `anchor root_hash ${anchor.root_hash} ≠ proof root_hash ${String(proof.root_hash)}`,
          );
      } else mismatches.push('no proof to compare with');
      add(
        'anchor_root',
        mismatches.length === 0,
        mismatches.length === 0
          ? `anchor of ${anchor.date} seals root ${anchor.root_hash}`
          : mismatches.join('; '),
      );

      const key = input.publicJwks ? await keyForAnchor(anchor, input.publicJwks) : (input.publicJwk ?? null);
      if (!key) {
        add(
          'anchor_signature',
          false,
          input.publicJwks
            ? `no key in the JWKS has the anchor's key_id ${anchor.key_id}`
            : "no public key supplied: fetch the log's JWKS to verify the anchor",
        );
      } else {
        const signed = await verifyAnchorSignature(anchor, key);
        add(
          'anchor_signature',
          signed,
          signed
            ? `Ed25519 signature by ${anchor.key_id} verifies`
            : 'the anchor signature does not verify with this key',
        );
        const cp = await verifyCheckpoint(anchor.checkpoint, key, input.keyName);
        if (!cp.ok) add('anchor_checkpoint', false, `checkpoint: ${cp.reason}`);
        else if (
          cp.checkpoint.tree_size !== anchor.tree_size ||
          cp.checkpoint.root_hash !== anchor.root_hash
        ) {
          add('anchor_checkpoint', false, 'the checkpoint states another tree size or root than the anchor');
        } else add('anchor_checkpoint', true, `checkpoint ${cp.checkpoint.origin} signed by ${cp.key_name}`);
      }
    }
  }

  return { ok: checks.every((c) => c.ok), sealed, checks };
}

/** True for a wire hash (64 lowercase hex characters); handy for clients validating responses. */
export { isHashHex };
