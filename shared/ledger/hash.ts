/**
 * Hashing for the civitas transparency log (RFC 6962 §2.1 / RFC 9162 §2.1 with SHA-256).
 *
 *   leaf hash  = SHA-256(0x00 || leaf data)
 *   node hash  = SHA-256(0x01 || left || right)
 *   empty tree = SHA-256("") = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
 *
 * RECEIPT LEAF DATA (what outside verifiers hash). The leaf data of a receipt is the UTF-8 encoding
 * of the canonical JSON object holding exactly these four fields:
 *
 *   {"id":<string>,"recorded_at":<string>,"step":<string>,"subject_digest":<64 lowercase hex>}
 *
 * keys in this (sorted) order, no whitespace, strings escaped as JSON.stringify does (RFC 8785).
 * The leaf commits to the subject through a salted digest, not the subject itself:
 *
 *   subject_digest = lowercase hex SHA-256(subject_salt (16 bytes) || UTF-8(subject))
 *
 * with a random per-receipt `subject_salt` published beside the subject (32 lowercase hex). So a
 * subject can be erased (personal-data erasure deletes subject and salt; the receipt then reads
 * `subject: "redacted"`, `subject_redacted: true`) while the digest, the leaf, every inclusion
 * proof and every anchor stay valid; and the salt keeps a redacted subject from being recovered by
 * hashing guesses (subjects such as `sovereign:3fa9` come from small spaces).
 *
 * Example: receipt { id:'rcpt_01J…', step:'record.imprint', subject:'imprint:42',
 * subject_salt:'00112233445566778899aabbccddeeff', recorded_at:'2026-11-22T10:00:00.000Z' } has
 * subject_digest = hex SHA-256(0x0011…eeff || "imprint:42") and leaf data
 *   {"id":"rcpt_01J…","recorded_at":"2026-11-22T10:00:00.000Z","step":"record.imprint","subject_digest":"…"}
 * and its `leaf_hash` is the lowercase hex of SHA-256(0x00 || those bytes). Other receipt fields
 * (`subject`, `subject_salt`, `leaf_hash`, `log`, `change_status`) are not part of the leaf.
 *
 * Uses only WebCrypto (globalThis.crypto.subtle) and TextEncoder, so it runs in browsers too.
 */
import { canonicalJson, concatBytes, fromHex, isHashHex, toHex, utf8 } from './encoding.ts';
import type { Bytes } from './encoding.ts';

export { bytesEqual, fromHex, isHashHex, toHex } from './encoding.ts';
export type { Bytes } from './encoding.ts';

export const HASH_SIZE = 32;
export const EMPTY_TREE_ROOT_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto (globalThis.crypto.subtle) is not available');
  return s;
}

export async function sha256(data: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await subtle().digest('SHA-256', data as Uint8Array<ArrayBuffer>));
}

/** RFC 6962 leaf hash: SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Promise<Bytes> {
  return sha256(concatBytes(LEAF_PREFIX, data));
}

/** RFC 6962 interior node hash: SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Promise<Bytes> {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) {
    return Promise.reject(new TypeError('node children must be 32-byte hashes'));
  }
  return sha256(concatBytes(NODE_PREFIX, left, right));
}

/** The fields of a receipt that are committed to the log. */
export interface ReceiptLeafFields {
  id: string;
  step: string;
  /** lowercase hex SHA-256(subject_salt || UTF-8(subject)); see subjectDigest */
  subject_digest: string;
  recorded_at: string;
}

const SALT_RE = /^[0-9a-f]{32}$/;

/** True for a subject salt as published: 16 bytes, lowercase hex. */
export function isSubjectSalt(value: unknown): value is string {
  return typeof value === 'string' && SALT_RE.test(value);
}

/** The salted subject commitment: lowercase hex SHA-256(salt (16 bytes) || UTF-8(subject)). */
export async function subjectDigest(subject: string, saltHex: string): Promise<string> {
  if (typeof subject !== 'string') throw new TypeError('receipt subject must be a string');
  if (!isSubjectSalt(saltHex)) throw new TypeError('subject_salt must be 32 lowercase hex characters');
  return toHex(await sha256(concatBytes(fromHex(saltHex), utf8(subject))));
}

/** Canonical leaf data of a receipt (see the module comment). Extra properties are ignored. */
export function receiptLeafData(receipt: ReceiptLeafFields): Bytes {
  const { id, step, subject_digest, recorded_at } = receipt ?? ({} as ReceiptLeafFields);
  if (typeof id !== 'string' || typeof step !== 'string' || typeof recorded_at !== 'string') {
    throw new TypeError('receipt id, step and recorded_at must be strings');
  }
  if (!isHashHex(subject_digest))
    throw new TypeError('receipt subject_digest must be 64 lowercase hex characters');
  return utf8(canonicalJson({ id, step, subject_digest, recorded_at }));
}

/** leafHash(receiptLeafData(receipt)). */
export function receiptLeafHash(receipt: ReceiptLeafFields): Promise<Bytes> {
  return leafHash(receiptLeafData(receipt));
}
