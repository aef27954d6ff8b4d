/**
 * Inclusion proofs (RFC 9162 §2.1.3): taken from a built tree, verified step by step (false,
 * never a throw, on malformed input).
 */
import { nodeHash } from './hash.ts';
import { bytesEqual } from './encoding.ts';
import type { Bytes } from './encoding.ts';
import {
  assertSize,
  half,
  isOdd,
  splitPoint,
  subtreeHash,
  toHash,
  toHashList,
  treeOf,
  type HashInput,
  type MerkleTree,
} from './merkle.ts';

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
