/**
 * The stored interior (api/ledger/tile-math.ts) against a full rebuild (shared/ledger's buildTree):
 * the same root and, for every leaf, the same RFC 9162 path, over many sizes, many batch splits and
 * the tile boundaries (255, 256, 257, 65,536 …).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTree, inclusionProof, toHex, verifyInclusion } from '../../../shared/ledger/index.ts';
import {
  TILE_WIDTH,
  appendToTree,
  inclusionPath,
  rootOf,
  tilesForProof,
  type TileAppend,
} from '../../../api/ledger/tile-math.ts';
import { at } from '../../helpers/elements.ts';

function leavesOf(n: number, seed: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => createHash('sha256').update(`leaf ${seed} ${i}`).digest());
}

/** Appends in batches of the given sizes; returns the stored tiles and frontier as a database would hold them. */
function grow(leaves: Buffer[], batches: number[]) {
  const tiles = new Map<string, Buffer>();
  let frontier: Buffer = Buffer.alloc(0);
  let size = 0;
  let b = 0;
  while (size < leaves.length) {
    const take = Math.min(Math.max(1, batches[b++ % batches.length] ?? 1), leaves.length - size);
    const appended = appendToTree(size, frontier, leaves.slice(size, size + take));
    for (const t of appended.tiles) store(tiles, t);
    frontier = appended.frontier;
    size += take;
  }
  return { tiles, frontier };
}

function store(tiles: Map<string, Buffer>, t: TileAppend): void {
  const key = `${t.level}/${t.index}`;
  const before = tiles.get(key) ?? Buffer.alloc(0);
  expect(before.length).toBe(t.offset * 32);
  tiles.set(key, Buffer.concat([before, t.hashes]));
}

/** Grows tiles over the first n leaves and compares root and paths with the tree rebuilt from them. */
async function expectSameAsRebuild(leaves: Buffer[], n: number, batches: number[], indexes?: number[]) {
  const { tiles, frontier } = grow(leaves.slice(0, n), batches);
  const tree = await buildTree(leaves.slice(0, n));
  const picked = indexes ?? Array.from({ length: n }, (_, k) => k);
  const fromTiles = picked.map((i) => inclusionPath(i, n, frontier, tiles).map(toHex));
  const rebuilt = await Promise.all(picked.map(async (i) => (await inclusionProof(tree, i)).map(toHex)));
  expect(fromTiles).toEqual(rebuilt);
  expect(toHex(rootOf(n, frontier))).toBe(toHex(tree.root));
}

/** Every leaf of small trees; the edges, the tile boundaries and a few others of larger ones. */
function sampleOf(n: number, seed: number): number[] | undefined {
  if (n <= 40) return undefined;
  const picks = [
    0,
    1,
    254,
    255,
    256,
    257,
    n - 257,
    n - 256,
    n - 2,
    n - 1,
    (seed * 7919) % n,
    (seed * 104_729) % n,
  ];
  return [...new Set(picks.filter((i) => i >= 0 && i < n))];
}

describe('the tree interior kept as tiles', () => {
  it('gives the root of the empty tree', () => {
    expect(toHex(rootOf(0, Buffer.alloc(0)))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('matches a full rebuild for every size up to 300, appended one by one and in batches', async () => {
    const leaves = leavesOf(300, 1);
    for (let n = 1; n <= 300; n++)
      await expectSameAsRebuild(leaves, n, n % 2 ? [1] : [7, 3, 64], sampleOf(n, n));
  });

  it('matches a full rebuild across tile boundaries', async () => {
    const leaves = leavesOf(TILE_WIDTH * TILE_WIDTH + 300, 2);
    for (const n of [511, 512, 513, 65_536, 65_537])
      await expectSameAsRebuild(leaves, n, [256, 100, 1], sampleOf(n, n));
  });

  it('matches a full rebuild for random sizes and batch splits (property)', async () => {
    const leaves = leavesOf(3000, 4);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3000 }),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        async (n, batches, seed) => expectSameAsRebuild(leaves, n, batches, sampleOf(n, seed)),
      ),
      { numRuns: 40 },
    );
  });

  it('reads one tile per tile level for a proof in a tree of a million leaves', async () => {
    const size = 1_000_000;
    for (const index of [0, 123_456, 999_999]) {
      const tiles = tilesForProof(index, size);
      expect(new Set(tiles.map((t) => t.level)).size).toBe(tiles.length);
      expect(tiles.length).toBeLessThanOrEqual(3);
    }
  });

  it('proves inclusion to the independent verifier', async () => {
    const leaves = leavesOf(1000, 3);
    const { tiles, frontier } = grow(leaves, [37]);
    const root = toHex(rootOf(1000, frontier));
    for (const i of [0, 499, 999]) {
      const inclusion_path = inclusionPath(i, 1000, frontier, tiles).map(toHex);
      expect(
        await verifyInclusion({
          leaf_index: i,
          tree_size: 1000,
          leaf_hash: toHex(at(leaves, i)),
          inclusion_path,
          root_hash: root,
        }),
      ).toBe(true);
    }
  });
});
