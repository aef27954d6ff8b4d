/**
 * Merkle Tree Hash, inclusion and consistency proofs exactly as RFC 9162 §2.1 defines them
 * (identical to RFC 6962 §2.1), over leaf hashes (each already `SHA-256(0x00 || data)`).
 *
 * `buildTree` hashes the tree once, level by level (hashes of one level run concurrently), and keeps
 * every level so that any number of proofs can be taken from one build without re-hashing:
 *
 *   levels[0]    = the leaf hashes
 *   levels[k][i] = MTH(D[i·2^k : min((i+1)·2^k, n)])
 *
 * i.e. the last node of a level with an odd count is carried up unchanged, which yields the same
 * tree as RFC 9162's "largest power of two smaller than n" split. Proofs for the tree's own size need
 * no hashing at all; proofs against an older size hash at most O(log n) nodes.
 *
 * Verification follows RFC 9162 §2.1.3.2 and §2.1.4.2 step by step. Verifiers accept hashes as
 * bytes or lowercase hex and return false (never throw) on malformed input.
 */
import { EMPTY_TREE_ROOT_HEX, HASH_SIZE, nodeHash } from './hash.ts';
import { fromHex } from './encoding.ts';
import type { Bytes } from './encoding.ts';

export type HashInput = Uint8Array | string;

export interface MerkleTree {
  readonly size: number;
  readonly levels: readonly (readonly Bytes[])[];
  readonly root: Bytes;
}

export const EMPTY_ROOT = fromHex(EMPTY_TREE_ROOT_HEX);
/** Upper bound on proof lengths we accept: a tree of 2^53 leaves needs at most 53 (+1) hashes. */
const MAX_PROOF_LENGTH = 64;
const CHUNK = 1 << 15;

export function assertSize(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative safe integer`);
}

/** Largest power of two strictly smaller than n (n >= 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function isOdd(n: number): boolean {
  return n % 2 === 1;
}

export function half(n: number): number {
  return Math.floor(n / 2);
}

export function toHash(value: HashInput): Bytes | null {
  try {
    const bytes = typeof value === 'string' ? fromHex(value) : value instanceof Uint8Array ? value : null;
    return bytes && bytes.length === HASH_SIZE ? (bytes as Bytes) : null;
  } catch {
    return null;
  }
}

export function toHashList(values: readonly HashInput[]): Bytes[] | null {
  if (!Array.isArray(values) || values.length > MAX_PROOF_LENGTH) return null;
  const out: Bytes[] = [];
  for (const v of values) {
    const h = toHash(v);
    if (!h) return null;
    out.push(h);
  }
  return out;
}

/** Builds every level of the tree over `leafHashes` (32 bytes each). */
export async function buildTree(leafHashes: readonly HashInput[]): Promise<MerkleTree> {
  const leaves: Bytes[] = leafHashes.map((h, i) => {
    const b = toHash(h);
    if (!b) throw new TypeError(`leaf hash ${i} is not a 32-byte hash`);
    return b;
  });
  const levels: Bytes[][] = [leaves];
  let current = leaves;
  while (current.length > 1) {
    const next: Bytes[] = new Array(Math.ceil(current.length / 2));
    for (let start = 0; start < next.length; start += CHUNK) {
      const end = Math.min(start + CHUNK, next.length);
      const pending: Promise<void>[] = [];
      for (let i = start; i < end; i++) {
        const left = current[2 * i]!; // i < ceil(current.length / 2), so 2i < current.length
        const right = current[2 * i + 1];
        if (right === undefined) next[i] = left;
        else pending.push(nodeHash(left, right).then((h) => void (next[i] = h)));
      }
      await Promise.all(pending);
    }
    levels.push(next);
    current = next;
  }
  // No leaves leave `current` empty; otherwise it holds exactly the root.
  return { size: leaves.length, levels, root: current[0] ?? EMPTY_ROOT.slice() };
}

/** MTH over the given leaf hashes (RFC 9162 §2.1.1); SHA-256("") for no leaves. */
export async function rootHash(leafHashes: readonly HashInput[]): Promise<Bytes> {
  return (await buildTree(leafHashes)).root;
}

export async function treeOf(source: MerkleTree | readonly HashInput[]): Promise<MerkleTree> {
  return Array.isArray(source) ? buildTree(source as readonly HashInput[]) : (source as MerkleTree);
}

/** levels[level][index] of a tree `buildTree` built; a missing node means a malformed tree. */
function cachedNode(tree: MerkleTree, level: number, index: number): Bytes {
  const node = tree.levels[level]?.[index];
  if (node === undefined) throw new RangeError('merkle tree is missing a cached node');
  return node;
}

/** MTH(D[start:end]) of a built tree, from the cached levels where possible. */
export async function subtreeHash(tree: MerkleTree, start: number, end: number): Promise<Bytes> {
  assertSize(start, 'start');
  assertSize(end, 'end');
  if (start > end || end > tree.size) throw new RangeError('subtree range out of bounds');
  const n = end - start;
  if (n === 0) return EMPTY_ROOT.slice();
  if (n === 1) return cachedNode(tree, 0, start);
  let width = 1;
  let level = 0;
  while (width < n) {
    width *= 2;
    level++;
  }
  if (start % width === 0 && end === Math.min(start + width, tree.size))
    return cachedNode(tree, level, start / width);
  const k = width / 2; // the largest power of two < n
  const [left, right] = await Promise.all([
    subtreeHash(tree, start, start + k),
    subtreeHash(tree, start + k, end),
  ]);
  return nodeHash(left, right);
}
