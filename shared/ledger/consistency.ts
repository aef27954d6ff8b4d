/**
 * Consistency proofs (RFC 9162 §2.1.4): taken between two sizes of a built tree, verified step by
 * step (false, never a throw, on malformed input).
 */
import { nodeHash } from './hash.ts';
import { bytesEqual } from './encoding.ts';
import type { Bytes } from './encoding.ts';
import {
  EMPTY_ROOT,
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
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second)
    return false;
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
  const [seed] = path;
  if (seed === undefined) return false; // not reached: step 1 refused an empty path
  let fr: Bytes = seed;
  let sr: Bytes = seed;
  // 6. For each subsequent value c in the consistency_path array:
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!; // i < path.length
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
