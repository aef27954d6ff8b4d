/**
 * Hashing for the civitas transparency log (RFC 6962 §2.1 / RFC 9162 §2.1 with SHA-256).
 *
 *   leaf hash  = SHA-256(0x00 || leaf data)
 *   node hash  = SHA-256(0x01 || left || right)
 *   empty tree = SHA-256("") = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
 *
 * RECEIPT LEAF DATA (what outside verifiers hash). The leaf data of a receipt is the UTF-8 encoding
 * of the canonical JSON object holding exactly its four recorded fields:
 *
 *   {"id":<string>,"recorded_at":<string>,"step":<string>,"subject":<string|null>}
 *
 * keys in this (sorted) order, no whitespace, strings escaped as JSON.stringify does (RFC 8785).
 * Example: receipt { id:'rcpt_01J…', step:'imprint.accepted', subject:'imprint:42',
 * recorded_at:'2026-11-22T10:00:00.000Z' } has leaf data
 *   {"id":"rcpt_01J…","recorded_at":"2026-11-22T10:00:00.000Z","step":"imprint.accepted","subject":"imprint:42"}
 * and its `leaf_hash` is the lowercase hex of SHA-256(0x00 || those bytes). Other receipt fields
 * (`leaf_hash`, `log`, `change_status`) are not part of the leaf.
 *
 * Uses only WebCrypto (globalThis.crypto.subtle) and TextEncoder, so it runs in browsers too.
 */
import { canonicalJson, concatBytes, utf8 } from './encoding.ts';
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
  subject: string | null;
  recorded_at: string;
}

/** Canonical leaf data of a receipt (see the module comment). Extra properties are ignored. */
export function receiptLeafData(receipt: ReceiptLeafFields): Bytes {
  const { id, step, subject, recorded_at } = receipt ?? ({} as ReceiptLeafFields);
  if (typeof id !== 'string' || typeof step !== 'string' || typeof recorded_at !== 'string') {
    throw new TypeError('receipt id, step and recorded_at must be strings');
  }
  if (subject !== null && typeof subject !== 'string') throw new TypeError('receipt subject must be a string or null');
  return utf8(canonicalJson({ id, step, subject, recorded_at }));
}

/** leafHash(receiptLeafData(receipt)). */
export function receiptLeafHash(receipt: ReceiptLeafFields): Promise<Bytes> {
  return leafHash(receiptLeafData(receipt));
}
