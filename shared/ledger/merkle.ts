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
import { bytesEqual, fromHex } from './encoding.ts';
import type { Bytes } from './encoding.ts';

export type HashInput = Uint8Array | string;

export interface MerkleTree {
  readonly size: number;
  readonly levels: readonly (readonly Bytes[])[];
  readonly root: Bytes;
}

const EMPTY_ROOT = fromHex(EMPTY_TREE_ROOT_HEX);
/** Upper bound on proof lengths we accept: a tree of 2^53 leaves needs at most 53 (+1) hashes. */
const MAX_PROOF_LENGTH = 64;
const CHUNK = 1 << 15;

function assertSize(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative safe integer`);
}

/** Largest power of two strictly smaller than n (n >= 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isOdd(n: number): boolean {
  return n % 2 === 1;
}

function half(n: number): number {
  return Math.floor(n / 2);
}

function toHash(value: HashInput): Bytes | null {
  try {
    const bytes = typeof value === 'string' ? fromHex(value) : value instanceof Uint8Array ? value : null;
    return bytes && bytes.length === HASH_SIZE ? (bytes as Bytes) : null;
  } catch {
    return null;
  }
}

function toHashList(values: readonly HashInput[]): Bytes[] | null {
  if (!Array.isArray(values) || values.length > MAX_PROOF_LENGTH) return null;
  const out: Bytes[] = [];
  for (const v of values) {
    const h = toHash(v);
    if (!h) return null;
    out.push(h);
  }
  return out;
}

// ---------------------------------------------------------------- building

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
        const left = current[2 * i];
        const right = current[2 * i + 1];
        if (right === undefined) next[i] = left;
        else pending.push(nodeHash(left, right).then((h) => void (next[i] = h)));
      }
      await Promise.all(pending);
    }
    levels.push(next);
    current = next;
  }
  return { size: leaves.length, levels, root: leaves.length === 0 ? EMPTY_ROOT.slice() : current[0] };
}

/** MTH over the given leaf hashes (RFC 9162 §2.1.1); SHA-256("") for no leaves. */
export async function rootHash(leafHashes: readonly HashInput[]): Promise<Bytes> {
  return (await buildTree(leafHashes)).root;
}

async function treeOf(source: MerkleTree | readonly HashInput[]): Promise<MerkleTree> {
  return Array.isArray(source) ? buildTree(source as readonly HashInput[]) : (source as MerkleTree);
}

/** MTH(D[start:end]) of a built tree, from the cached levels where possible. */
export async function subtreeHash(tree: MerkleTree, start: number, end: number): Promise<Bytes> {
  assertSize(start, 'start');
  assertSize(end, 'end');
  if (start > end || end > tree.size) throw new RangeError('subtree range out of bounds');
  const n = end - start;
  if (n === 0) return EMPTY_ROOT.slice();
  if (n === 1) return tree.levels[0][start];
  let width = 1;
  let level = 0;
  while (width < n) {
    width *= 2;
    level++;
  }
  if (start % width === 0 && end === Math.min(start + width, tree.size)) return tree.levels[level][start / width];
  const k = width / 2; // the largest power of two < n
  const [left, right] = await Promise.all([subtreeHash(tree, start, start + k), subtreeHash(tree, start + k, end)]);
  return nodeHash(left, right);
}

// ---------------------------------------------------------------- inclusion

/**
 * The audit path PATH(m, D[0:treeSize]) of RFC 9162 §2.1.3.1 for leaf `index`, deepest sibling
 * first. `treeSize` defaults to the whole tree; a smaller size proves against an older tree head.
 */
export async function inclusionProof(
  source: MerkleTree | readonly HashInput[],
  index: number,
  treeSize?: number,
): Promise<Bytes[]> {
  const tree = await treeOf(source);
  const size = treeSize ?? tree.size;
  assertSize(index, 'index');
  assertSize(size, 'tree size');
  if (size > tree.size) throw new RangeError('tree size exceeds the built tree');
  if (index >= size) throw new RangeError('leaf index out of range');
  const path: Bytes[] = [];
  const walk = async (m: number, start: number, end: number): Promise<void> => {
    const n = end - start;
    if (n <= 1) return;
    const k = splitPoint(n);
    if (m < k) {
      await walk(m, start, start + k);
      path.push(await subtreeHash(tree, start + k, end));
    } else {
      await walk(m - k, start + k, end);
      path.push(await subtreeHash(tree, start, start + k));
    }
  };
  await walk(index, 0, size);
  return path;
}

export interface InclusionInput {
  leaf_index: number;
  tree_size: number;
  leaf_hash: HashInput;
  inclusion_path: readonly HashInput[];
  root_hash: HashInput;
}

/**
 * The root an inclusion path leads to (RFC 9162 §2.1.3.2 steps 1–4), or null when the path is
 * malformed for (leaf_index, tree_size) — including when it is too long or too short.
 */
export async function rootFromInclusionProof(
  input: Omit<InclusionInput, 'root_hash'>,
): Promise<Bytes | null> {
  const { leaf_index, tree_size } = input;
  if (!Number.isSafeInteger(leaf_index) || !Number.isSafeInteger(tree_size) || leaf_index < 0) return null;
  // 1. If leaf_index is greater than or equal to tree_size, then stop and fail the proof verification.
  if (leaf_index >= tree_size) return null;
  const leaf = toHash(input.leaf_hash);
  const path = toHashList(input.inclusion_path);
  if (!leaf || !path) return null;
  // 2. Set fn to leaf_index and sn to tree_size - 1.
  let fn = leaf_index;
  let sn = tree_size - 1;
  // 3. Set r to leaf_hash.
  let r: Bytes = leaf;
  // 4. For each value p in the inclusion_path array:
  for (const p of path) {
    // a. If sn is 0, then stop the iteration and fail the proof verification.
    if (sn === 0) return null;
    // b. If LSB(fn) is set, or if fn is equal to sn, then:
    if (isOdd(fn) || fn === sn) {
      // 1. Set r to HASH(0x01 || p || r).
      r = await nodeHash(p, r);
      // 2. If LSB(fn) is not set, then right-shift both fn and sn equally until either LSB(fn) is set or fn is 0.
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      // Otherwise: Set r to HASH(0x01 || r || p).
      r = await nodeHash(r, p);
    }
    // c. Finally, right-shift both fn and sn one time.
    fn = half(fn);
    sn = half(sn);
  }
  // 5. (first half) sn must be 0.
  return sn === 0 ? r : null;
}

/** RFC 9162 §2.1.3.2: true iff the path leads from leaf_hash at leaf_index to root_hash. */
export async function verifyInclusion(input: InclusionInput): Promise<boolean> {
  const root = toHash(input?.root_hash);
  if (!root) return false;
  const computed = await rootFromInclusionProof(input);
  // 5. Compare sn to 0. Compare r against the root_hash. If sn is equal to 0 and r and the root_hash are equal, then the log has proven the inclusion of the hash.
  return computed !== null && bytesEqual(computed, root);
}

// ---------------------------------------------------------------- consistency

/**
 * PROOF(first, D[0:second]) of RFC 9162 §2.1.4.1: the consistency proof between the tree heads of
 * sizes `first` and `second` (default: the whole tree). Empty when first == second or first == 0.
 */
export async function consistencyProof(
  source: MerkleTree | readonly HashInput[],
  first: number,
  second?: number,
): Promise<Bytes[]> {
  const tree = await treeOf(source);
  const n = second ?? tree.size;
  assertSize(first, 'first');
  assertSize(n, 'second');
  if (n > tree.size) throw new RangeError('second exceeds the built tree');
  if (first > n) throw new RangeError('first must not exceed second');
  if (first === 0 || first === n) return [];
  const proof: Bytes[] = [];
  // SUBPROOF(m, D[start:end], b)
  const sub = async (m: number, start: number, end: number, b: boolean): Promise<void> => {
    const size = end - start;
    if (m === size) {
      if (!b) proof.push(await subtreeHash(tree, start, end));
      return;
    }
    const k = splitPoint(size);
    if (m <= k) {
      await sub(m, start, start + k, b);
      proof.push(await subtreeHash(tree, start + k, end));
    } else {
      await sub(m - k, start + k, end, false);
      proof.push(await subtreeHash(tree, start, start + k));
    }
  };
  await sub(first, 0, n, true);
  return proof;
}

export interface ConsistencyInput {
  first: number;
  second: number;
  first_hash: HashInput;
  second_hash: HashInput;
  consistency_path: readonly HashInput[];
}

function isPowerOfTwo(n: number): boolean {
  if (n < 1) return false;
  while (n % 2 === 0) n /= 2;
  return n === 1;
}

/**
 * RFC 9162 §2.1.4.2. Edge cases (which the RFC leaves to the caller) follow transparency-dev/merkle,
 * slightly stricter: first == second needs an empty path and equal hashes; first == 0 needs an empty
 * path and first_hash equal to the empty-tree hash; first > second fails.
 */
export async function verifyConsistency(input: ConsistencyInput): Promise<boolean> {
  const { first, second } = input ?? ({} as ConsistencyInput);
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  const firstHash = toHash(input.first_hash);
  const secondHash = toHash(input.second_hash);
  const given = toHashList(input.consistency_path);
  if (!firstHash || !secondHash || !given) return false;
  if (first === second) return given.length === 0 && bytesEqual(firstHash, secondHash);
  if (first === 0) return given.length === 0 && bytesEqual(firstHash, EMPTY_ROOT);
  // 1. If consistency_path is an empty array, stop and fail the proof verification.
  if (given.length === 0) return false;
  // 2. If first is an exact power of 2, then prepend first_hash to the consistency_path array.
  const path = isPowerOfTwo(first) ? [firstHash, ...given] : given;
  // 3. Set fn to first - 1 and sn to second - 1.
  let fn = first - 1;
  let sn = second - 1;
  // 4. If LSB(fn) is set, then right-shift both fn and sn equally until LSB(fn) is not set.
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  // 5. Set both fr and sr to the first value in the consistency_path array.
  let fr: Bytes = path[0];
  let sr: Bytes = path[0];
  // 6. For each subsequent value c in the consistency_path array:
  for (let i = 1; i < path.length; i++) {
    const c = path[i];
    // a. If sn is 0, then stop the iteration and fail the proof verification.
    if (sn === 0) return false;
    // b. If LSB(fn) is set, or if fn is equal to sn, then:
    if (isOdd(fn) || fn === sn) {
      // 1. Set fr to HASH(0x01 || c || fr).  2. Set sr to HASH(0x01 || c || sr).
      [fr, sr] = await Promise.all([nodeHash(c, fr), nodeHash(c, sr)]);
      // 3. If LSB(fn) is not set, then right-shift both fn and sn equally until either LSB(fn) is set or fn is 0.
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      // Otherwise: Set sr to HASH(0x01 || sr || c).
      sr = await nodeHash(sr, c);
    }
    // c. Finally, right-shift both fn and sn one time.
    fn = half(fn);
    sn = half(sn);
  }
  // 7. Verify that fr equals first_hash, sr equals second_hash, and sn is 0.
  return sn === 0 && bytesEqual(fr, firstHash) && bytesEqual(sr, secondHash);
}
