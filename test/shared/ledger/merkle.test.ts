import { describe, expect, it, vi } from 'vitest';
import { EMPTY_TREE_ROOT_HEX, leafHash, nodeHash, sha256 } from '../../../shared/ledger/hash.ts';
import { buildTree, rootHash, subtreeHash } from '../../../shared/ledger/merkle.ts';
import { consistencyProof, verifyConsistency } from '../../../shared/ledger/consistency.ts';
import { inclusionProof, rootFromInclusionProof, verifyInclusion } from '../../../shared/ledger/inclusion.ts';
import { hex, hexes, refConsistency, refLeaf, refMth, refNode, refPath, unhex } from './reference.ts';
import { at } from '../../helpers/elements.ts';
import {
  CONSISTENCY_VECTORS,
  INCLUSION_VECTORS,
  LEAF_HASHES,
  LEAF_INPUTS,
  ROOTS,
} from './rfc6962-vectors.ts';

/**
 * The Merkle tree of the ledger (RFC 6962 / RFC 9162) against the published vectors
 * (rfc6962-vectors.ts) and the naive reference (reference.ts), and its work at scale counted in
 * digests. Properties over random trees are merkle-properties.test.ts.
 */
const refLeaves = LEAF_INPUTS.map((x) => refLeaf(unhex(x)));

describe('RFC 6962 vectors', () => {
  it('the vectors agree with the naive reference implementation', () => {
    expect(hex(refMth([]))).toBe(EMPTY_TREE_ROOT_HEX);
    expect(hexes(refLeaves)).toEqual(LEAF_HASHES);
    for (let n = 0; n <= 8; n++) expect(hex(refMth(refLeaves.slice(0, n))), `root ${n}`).toBe(ROOTS[n]);
    for (const [i, n, path] of INCLUSION_VECTORS)
      expect(hexes(refPath(i, refLeaves.slice(0, n)))).toEqual(path);
    for (const [m, n, path] of CONSISTENCY_VECTORS)
      expect(hexes(refConsistency(m, refLeaves.slice(0, n)))).toEqual(path);
  });

  it('hashes leaves, nodes and the empty tree', async () => {
    expect(hex(await sha256(new Uint8Array()))).toBe(EMPTY_TREE_ROOT_HEX);
    const leaves = await Promise.all(LEAF_INPUTS.map((x) => leafHash(unhex(x))));
    expect(hexes(leaves)).toEqual(LEAF_HASHES);
    expect(hex(await nodeHash(at(leaves, 0), at(leaves, 1)))).toBe(at(ROOTS, 2));
    await expect(nodeHash(at(leaves, 0), new Uint8Array(31))).rejects.toThrow(TypeError);
  });

  it('computes the root of every prefix size', async () => {
    for (let n = 0; n <= 8; n++) {
      expect(hex(await rootHash(LEAF_HASHES.slice(0, n))), `size ${n}`).toBe(ROOTS[n]);
      const tree = await buildTree(LEAF_HASHES);
      expect(hex(await subtreeHash(tree, 0, n))).toBe(ROOTS[n]);
    }
  });

  it('produces and verifies the inclusion vectors', async () => {
    for (const [i, n, path] of INCLUSION_VECTORS) {
      expect(hexes(await inclusionProof(LEAF_HASHES.slice(0, n), i))).toEqual(path);
      expect(hexes(await inclusionProof(await buildTree(LEAF_HASHES), i, n))).toEqual(path);
      const ok = await verifyInclusion({
        leaf_index: i,
        tree_size: n,
        leaf_hash: at(LEAF_HASHES, i),
        inclusion_path: path,
        root_hash: at(ROOTS, n),
      });
      expect(ok).toBe(true);
    }
  });

  it('produces and verifies the consistency vectors', async () => {
    const tree = await buildTree(LEAF_HASHES);
    for (const [m, n, path] of CONSISTENCY_VECTORS) {
      expect(hexes(await consistencyProof(tree, m, n))).toEqual(path);
      expect(hexes(await consistencyProof(LEAF_HASHES.slice(0, n), m))).toEqual(path);
      const ok = await verifyConsistency({
        first: m,
        second: n,
        first_hash: at(ROOTS, m),
        second_hash: at(ROOTS, n),
        consistency_path: path,
      });
      expect(ok, `${m}->${n}`).toBe(true);
    }
  });

  it('rejects the corrupted probes of transparency-dev for every inclusion vector', async () => {
    const someHash = 'abacaba000000000000000000000000000000000000000000060061e00123456';
    for (const [i, n, path] of INCLUSION_VECTORS) {
      const good = {
        leaf_index: i,
        tree_size: n,
        leaf_hash: at(LEAF_HASHES, i),
        inclusion_path: path,
        root_hash: at(ROOTS, n),
      };
      const probes = [
        { ...good, leaf_index: i - 1 },
        { ...good, leaf_index: i + 1 },
        { ...good, leaf_index: i ^ 2 },
        { ...good, tree_size: n * 2 },
        { ...good, tree_size: Math.floor(n / 2) },
        { ...good, leaf_hash: someHash },
        { ...good, root_hash: EMPTY_TREE_ROOT_HEX },
        { ...good, root_hash: someHash },
        { ...good, inclusion_path: [...path, at(ROOTS, n)] },
        { ...good, inclusion_path: [at(ROOTS, n), ...path] },
        { ...good, inclusion_path: path.slice(0, -1) },
        { ...good, inclusion_path: [at(path, 0), someHash, ...path.slice(1)] },
        { ...good, inclusion_path: [...path, ''] },
      ];
      for (const [k, probe] of probes.entries())
        expect(await verifyInclusion(probe), `vector ${i}/${n} probe ${k}`).toBe(false);
    }
  });

  it('handles the edge cases of consistency the way transparency-dev does (a bit stricter)', async () => {
    const v = (
      first: number,
      second: number,
      first_hash: string,
      second_hash: string,
      consistency_path: string[] = [],
    ) => verifyConsistency({ first, second, first_hash, second_hash, consistency_path });
    expect(await v(0, 0, EMPTY_TREE_ROOT_HEX, EMPTY_TREE_ROOT_HEX)).toBe(true);
    expect(await v(0, 5, EMPTY_TREE_ROOT_HEX, at(ROOTS, 5))).toBe(true);
    expect(await v(0, 5, at(ROOTS, 1), at(ROOTS, 5))).toBe(false); // size 0 must carry the empty-tree hash
    expect(await v(0, 5, EMPTY_TREE_ROOT_HEX, at(ROOTS, 5), [at(ROOTS, 1)])).toBe(false);
    expect(await v(3, 3, at(ROOTS, 3), at(ROOTS, 3))).toBe(true);
    expect(await v(3, 3, at(ROOTS, 3), at(ROOTS, 4))).toBe(false);
    expect(await v(3, 3, at(ROOTS, 3), at(ROOTS, 3), [at(ROOTS, 3)])).toBe(false);
    expect(await v(4, 3, at(ROOTS, 4), at(ROOTS, 3))).toBe(false);
    expect(await v(1, 2, at(ROOTS, 1), at(ROOTS, 2))).toBe(false); // empty proof
  });

  it('rejects malformed inclusion input without throwing', async () => {
    const base = {
      leaf_index: 0,
      tree_size: 1,
      leaf_hash: at(LEAF_HASHES, 0),
      inclusion_path: [] as string[],
      root_hash: at(LEAF_HASHES, 0),
    };
    expect(await verifyInclusion(base)).toBe(true);
    for (const bad of [
      { ...base, leaf_index: -1 },
      { ...base, leaf_index: 0.5 },
      { ...base, tree_size: 0 },
      { ...base, tree_size: Number.MAX_SAFE_INTEGER + 1 },
      { ...base, leaf_hash: at(LEAF_HASHES, 0).toUpperCase() },
      { ...base, root_hash: at(LEAF_HASHES, 0).slice(2) },
      { ...base, leaf_hash: new Uint8Array(0) },
      { ...base, inclusion_path: 'nope' as unknown as string[] },
      { ...base, inclusion_path: Array(65).fill(LEAF_HASHES[0]) },
    ]) {
      expect(await verifyInclusion(bad)).toBe(false);
    }
    expect(await rootFromInclusionProof({ ...base, leaf_index: 1 })).toBeNull();
  });

  it('refuses to build from non-hashes or to prove outside the tree', async () => {
    await expect(buildTree(['00'])).rejects.toThrow(TypeError);
    await expect(inclusionProof(LEAF_HASHES, 8)).rejects.toThrow(RangeError);
    await expect(inclusionProof(LEAF_HASHES, 0, 9)).rejects.toThrow(RangeError);
    await expect(consistencyProof(LEAF_HASHES, 9)).rejects.toThrow(RangeError);
    expect(await consistencyProof(LEAF_HASHES, 0)).toEqual([]);
    expect(hex((await buildTree([])).root)).toBe(EMPTY_TREE_ROOT_HEX);
  });
});

// ---------------------------------------------------------------- properties

describe('scale', () => {
  // The work is counted in SHA-256 digests, not timed (its speed is in `npm run bench`).
  it('builds 100k leaves once (n - 1 node hashes) and serves many proofs without re-hashing', async () => {
    const n = 100_000;
    const leaves = await Promise.all(
      Array.from({ length: n }, (_, i) => leafHash(new TextEncoder().encode(`r${i}`))),
    );
    const digest = vi.spyOn(globalThis.crypto.subtle, 'digest');
    try {
      const tree = await buildTree(leaves);
      expect(digest).toHaveBeenCalledTimes(n - 1);
      digest.mockClear();
      const sampled: { i: number; path: Uint8Array[] }[] = [];
      for (let k = 0; k < 1000; k++) {
        const i = (k * 7919) % n;
        const path = await inclusionProof(tree, i);
        expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        if (k % 100 === 0) sampled.push({ i, path });
      }
      // Every proof against the built tree's own size is read from its cached levels.
      expect(digest).not.toHaveBeenCalled();
      digest.mockRestore();
      for (const { i, path } of sampled) {
        expect(
          await verifyInclusion({
            leaf_index: i,
            tree_size: n,
            leaf_hash: at(leaves, i),
            inclusion_path: path,
            root_hash: tree.root,
          }),
        ).toBe(true);
      }
      const cons = await consistencyProof(tree, 77_777);
      expect(
        await verifyConsistency({
          first: 77_777,
          second: n,
          first_hash: await subtreeHash(tree, 0, 77_777),
          second_hash: tree.root,
          consistency_path: cons,
        }),
      ).toBe(true);
      // The root agrees with the plain recursive definition.
      expect(hex(tree.root)).toBe(hex(refMth(leaves)));
    } finally {
      digest.mockRestore();
    }
  });
});

// keep the reference node hash in use (documents that refNode is the same construction)
it('reference node hash matches the implementation', async () => {
  const a = refLeaf(new Uint8Array([1]));
  const b = refLeaf(new Uint8Array([2]));
  expect(hex(await nodeHash(a, b))).toBe(hex(refNode(a, b)));
});
