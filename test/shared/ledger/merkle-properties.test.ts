/** Merkle properties over random trees: roots and every proof against the naive reference, and tampering always caught. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildTree, subtreeHash } from '../../../shared/ledger/merkle.ts';
import { consistencyProof, verifyConsistency } from '../../../shared/ledger/consistency.ts';
import { inclusionProof, verifyInclusion } from '../../../shared/ledger/inclusion.ts';
import { hex, hexes, refConsistency, refLeaf, refMth, refPath } from './reference.ts';
import { at } from '../../helpers/elements.ts';
function randomLeaves(n: number, seed: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) out.push(refLeaf(new TextEncoder().encode(`leaf ${seed} ${i}`)));
  return out;
}

/** Which side each sibling of leaf i sits on in a tree of size n, from the recursive PATH definition. */
function refDirections(i: number, n: number): string[] {
  if (n <= 1) return [];
  let k = 1;
  while (k * 2 < n) k *= 2;
  return i < k ? [...refDirections(i, k), 'R'] : [...refDirections(i - k, n - k), 'L'];
}

function refConsistencyLength(m: number, n: number): number {
  const dummy = Array.from({ length: n }, () => new Uint8Array(32));
  return refConsistency(m, dummy).length;
}

const flipBit = (b: Uint8Array, bit: number): Uint8Array => {
  const c = b.slice();
  const i = (bit >> 3) % c.length;
  c[i] = at(c, i) ^ (1 << (bit & 7));
  return c;
};

describe('Merkle properties over random trees (sizes 1..300)', () => {
  it('matches the reference for roots and every proof', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.integer(), fc.nat(), async (n, seed, pick) => {
        const leaves = randomLeaves(n, seed);
        const tree = await buildTree(leaves);
        expect(hex(tree.root)).toBe(hex(refMth(leaves)));
        const i = pick % n;
        expect(hexes(await inclusionProof(tree, i))).toEqual(hexes(refPath(i, leaves)));
        const m = (pick % n) + 1;
        expect(hexes(await consistencyProof(tree, m))).toEqual(hexes(refConsistency(m, leaves)));
        const older = 1 + ((seed >>> 0) % n);
        const j = pick % older;
        expect(hexes(await inclusionProof(tree, j, older))).toEqual(
          hexes(refPath(j, leaves.slice(0, older))),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('every inclusion proof verifies and any tampering fails', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.integer(),
        fc.nat(),
        fc.nat(),
        async (n, seed, pick, bit) => {
          const leaves = randomLeaves(n, seed);
          const tree = await buildTree(leaves);
          const i = pick % n;
          const path = await inclusionProof(tree, i);
          const good = {
            leaf_index: i,
            tree_size: n,
            leaf_hash: at(leaves, i),
            inclusion_path: path,
            root_hash: tree.root,
          };
          expect(await verifyInclusion(good)).toBe(true);
          expect(await verifyInclusion({ ...good, leaf_hash: flipBit(at(leaves, i), bit) })).toBe(false);
          expect(await verifyInclusion({ ...good, root_hash: flipBit(tree.root, bit) })).toBe(false);
          if (path.length > 0) {
            const k = bit % path.length;
            const tampered = path.map((p, idx) => (idx === k ? flipBit(p, bit) : p));
            expect(await verifyInclusion({ ...good, inclusion_path: tampered })).toBe(false);
            expect(await verifyInclusion({ ...good, inclusion_path: path.slice(1) })).toBe(false);
          }
          expect(await verifyInclusion({ ...good, inclusion_path: [...path, tree.root] })).toBe(false);
          // Another index: fails unless the other leaf happens to be identical (it never is here).
          if (n > 1) {
            const other = (i + 1 + (bit % (n - 1))) % n;
            expect(await verifyInclusion({ ...good, leaf_index: other })).toBe(false);
          }
          expect(await verifyInclusion({ ...good, leaf_index: n })).toBe(false);
          // Another size: the path alone binds the size only through the proof's shape (which side
          // each sibling is on, RFC 9162 §2.1.3). A size with another shape must fail; a size with the
          // same shape verifies here and is caught by the signed anchor, which binds size to root.
          for (const size of [n + 1, n - 1, n * 2, Math.floor(n / 2), n + 1 + (bit % 300)]) {
            if (size === n || size <= i) continue;
            const sameShape = refDirections(i, size).join() === refDirections(i, n).join();
            expect(await verifyInclusion({ ...good, tree_size: size }), `size ${size}`).toBe(sameShape);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('consistency proofs verify between random m <= n and fail when tampered', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.integer(),
        fc.nat(),
        fc.nat(),
        async (n, seed, pick, bit) => {
          const leaves = randomLeaves(n, seed);
          const tree = await buildTree(leaves);
          const m = 1 + (pick % n);
          const firstHash = await subtreeHash(tree, 0, m);
          expect(hex(firstHash)).toBe(hex(refMth(leaves.slice(0, m))));
          const path = await consistencyProof(tree, m);
          const good = {
            first: m,
            second: n,
            first_hash: firstHash,
            second_hash: tree.root,
            consistency_path: path,
          };
          expect(await verifyConsistency(good)).toBe(true);
          expect(await verifyConsistency({ ...good, first_hash: flipBit(firstHash, bit) })).toBe(false);
          expect(await verifyConsistency({ ...good, second_hash: flipBit(tree.root, bit) })).toBe(false);
          if (path.length > 0) {
            const k = bit % path.length;
            expect(
              await verifyConsistency({
                ...good,
                consistency_path: path.map((p, idx) => (idx === k ? flipBit(p, bit) : p)),
              }),
            ).toBe(false);
            expect(await verifyConsistency({ ...good, consistency_path: path.slice(0, -1) })).toBe(false);
            expect(await verifyConsistency({ ...good, consistency_path: [...path, at(path, 0)] })).toBe(
              false,
            );
            expect(await verifyConsistency({ ...good, first_hash: tree.root, second_hash: firstHash })).toBe(
              false,
            );
            // Sizes whose proof has another length can never verify (the sizes alone fix how many
            // hashes RFC 9162 §2.1.4.2 consumes); same-length sizes are bound by the signed anchors.
            for (const [m2, n2] of [
              [m, n + 1],
              [m + 1, n],
              [m - 1, n],
              [m, n * 2],
              [m, n - 1],
            ] as const) {
              if (m2 < 1 || m2 > n2 || (m2 === m && n2 === n)) continue;
              if (refConsistencyLength(m2, n2) !== path.length) {
                expect(await verifyConsistency({ ...good, first: m2, second: n2 }), `${m2}->${n2}`).toBe(
                  false,
                );
              }
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('proves between two older sizes from one build', async () => {
    const leaves = randomLeaves(300, 7);
    const tree = await buildTree(leaves);
    for (const [m, n] of [
      [1, 2],
      [3, 7],
      [64, 65],
      [100, 257],
      [255, 256],
      [128, 300],
    ] as const) {
      const path = await consistencyProof(tree, m, n);
      expect(hexes(path)).toEqual(hexes(refConsistency(m, leaves.slice(0, n))));
      const ok = await verifyConsistency({
        first: m,
        second: n,
        first_hash: refMth(leaves.slice(0, m)),
        second_hash: refMth(leaves.slice(0, n)),
        consistency_path: path,
      });
      expect(ok).toBe(true);
    }
  });
});
