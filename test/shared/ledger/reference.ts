/**
 * An independent, deliberately naive RFC 9162 §2.1 reference: synchronous SHA-256 from node:crypto
 * and the textbook recursions (MTH, PATH, SUBPROOF) over the leaf data. Used only by tests to check
 * the WebCrypto implementation and the published vectors.
 */
import { createHash } from 'node:crypto';
import { at } from '../../helpers/elements.ts';

export function h(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p);
  return new Uint8Array(hash.digest());
}

export const refLeaf = (data: Uint8Array): Uint8Array => h(Uint8Array.of(0), data);
export const refNode = (l: Uint8Array, r: Uint8Array): Uint8Array => h(Uint8Array.of(1), l, r);

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) over leaf hashes. */
export function refMth(leaves: Uint8Array[]): Uint8Array {
  const n = leaves.length;
  if (n === 0) return h();
  if (n === 1) return at(leaves, 0);
  const k = split(n);
  return refNode(refMth(leaves.slice(0, k)), refMth(leaves.slice(k)));
}

/** PATH(m, D[n]). */
export function refPath(m: number, leaves: Uint8Array[]): Uint8Array[] {
  const n = leaves.length;
  if (n <= 1) return [];
  const k = split(n);
  if (m < k) return [...refPath(m, leaves.slice(0, k)), refMth(leaves.slice(k))];
  return [...refPath(m - k, leaves.slice(k)), refMth(leaves.slice(0, k))];
}

function subproof(m: number, leaves: Uint8Array[], b: boolean): Uint8Array[] {
  const n = leaves.length;
  if (m === n) return b ? [] : [refMth(leaves)];
  const k = split(n);
  if (m <= k) return [...subproof(m, leaves.slice(0, k), b), refMth(leaves.slice(k))];
  return [...subproof(m - k, leaves.slice(k), false), refMth(leaves.slice(0, k))];
}

/** PROOF(m, D[n]) for 0 < m < n; [] otherwise. */
export function refConsistency(m: number, leaves: Uint8Array[]): Uint8Array[] {
  if (m === 0 || m === leaves.length) return [];
  return subproof(m, leaves, true);
}

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

/** Many hashes as lowercase hex, for comparing proofs. */
export const hexes = (xs: Uint8Array[]): string[] => xs.map(hex);
