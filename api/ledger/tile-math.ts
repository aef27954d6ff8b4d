/**
 * The arithmetic of a day's stored tree interior (docs/ledger.md, "Tiles"), pure and synchronous.
 *
 * The layout is C2SP tlog-tiles': a tile at tile level L holds up to 256 consecutive hashes of tree
 * level 8·L (a complete subtree of 256^L leaves each); tile level 0 holds the leaf hashes. Full
 * tiles never change; the right edge's partial tile grows by appending. The levels between two tile
 * levels are recomputed from the tile below (at most 255 hashes per tile).
 *
 * The frontier is the compact range of the whole tree: the hash of the complete subtree for each
 * set bit of the size, highest first (left to right). It gives the root (a fold of O(log n)
 * hashes) and every right-edge subtree of an inclusion path, and it is all an appender needs.
 *
 * SHA-256 runs here with node:crypto, synchronously: the Record's batch appends while it holds the
 * day's row lock, so the hashes must cost microseconds (as the leaves in receipts.ts do).
 */
import { createHash } from 'node:crypto';

export const TILE_WIDTH = 256;
export const TILE_HEIGHT = 8;
const HASH = 32;
const NODE_PREFIX = Buffer.of(0x01);
const EMPTY_ROOT = createHash('sha256').digest();

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/** Hashes appended to one tile: `hashes` (32 bytes each) start at entry `offset` of tile (level, index). */
export interface TileAppend {
  level: number;
  index: number;
  offset: number;
  hashes: Buffer;
}

interface Node {
  level: number;
  hash: Buffer;
}

function setBitsHighFirst(size: number): number[] {
  const levels: number[] = [];
  for (let level = 52; level >= 0; level--) if (Math.floor(size / 2 ** level) % 2 === 1) levels.push(level);
  return levels;
}

/** The frontier as nodes, highest level first; throws when its length does not fit the size. */
export function frontierNodes(size: number, frontier: Uint8Array): Node[] {
  const levels = setBitsHighFirst(size);
  if (frontier.length !== levels.length * HASH)
    throw new Error(`frontier of ${frontier.length} bytes does not fit a tree of ${size} leaves`);
  return levels.map((level, i) => ({
    level,
    hash: Buffer.from(frontier.subarray(i * HASH, (i + 1) * HASH)),
  }));
}

/** The tree's root (RFC 9162 MTH) from its frontier: SHA-256("") for the empty tree. */
export function rootOf(size: number, frontier: Uint8Array): Buffer {
  const nodes = frontierNodes(size, frontier);
  const last = nodes.at(-1);
  if (last === undefined) return EMPTY_ROOT;
  let root = last.hash;
  for (let i = nodes.length - 2; i >= 0; i--) root = nodeHash(nodes[i]!.hash, root); // 0 ≤ i < length
  return root;
}

/**
 * Appends leaves to a tree of `size` leaves with this frontier: the new frontier, and the hashes
 * each tile gains (the leaves, and every tile-level node the new leaves complete).
 */
export function appendToTree(
  size: number,
  frontier: Uint8Array,
  leaves: readonly Uint8Array[],
): { frontier: Buffer; tiles: TileAppend[] } {
  const stack = frontierNodes(size, frontier);
  const runs: Array<{ level: number; index: number; offset: number; parts: Buffer[] }> = [];
  const open: Array<(typeof runs)[number] | undefined> = [];
  const emit = (level: number, index: number, hash: Buffer) => {
    if (level % TILE_HEIGHT !== 0) return;
    const tileLevel = level / TILE_HEIGHT;
    const tile = Math.floor(index / TILE_WIDTH);
    const offset = index % TILE_WIDTH;
    const run = open[tileLevel];
    if (run && run.index === tile && run.offset + run.parts.length === offset) {
      run.parts.push(hash);
    } else {
      runs.push((open[tileLevel] = { level: tileLevel, index: tile, offset, parts: [hash] }));
    }
  };
  leaves.forEach((leaf, j) => {
    const index = size + j;
    let hash: Buffer = Buffer.from(leaf);
    let level = 0;
    emit(0, index, hash);
    while (stack.at(-1)?.level === level) {
      hash = nodeHash(stack.pop()!.hash, hash);
      level++;
      emit(level, Math.floor(index / 2 ** level), hash);
    }
    stack.push({ level, hash });
  });
  const tiles = runs.map(({ parts, ...tile }) => ({ ...tile, hashes: Buffer.concat(parts) }));
  return { frontier: Buffer.concat(stack.map((node) => node.hash)), tiles };
}

/** A complete node: level `level` (subtree of 2^level leaves), index `index` at that level. */
export interface NodeRef {
  level: number;
  index: number;
}

/** The tile (level, index) that holds the hashes a complete node is recomputed from. */
export function tileOf(node: NodeRef): NodeRef {
  const tileLevel = Math.floor(node.level / TILE_HEIGHT);
  const base = node.index * 2 ** (node.level % TILE_HEIGHT);
  return { level: tileLevel, index: Math.floor(base / TILE_WIDTH) };
}

/** A step of an inclusion path: a complete node from the tiles, or the ragged right edge [start, size) from the frontier. */
type PathPart = { node: NodeRef } | { edgeFrom: number };

function isPowerOfTwo(n: number): boolean {
  return n > 0 && 2 ** Math.round(Math.log2(n)) === n;
}

/**
 * The parts of PATH(m, D[0:n]) (RFC 9162 §2.1.3.1), deepest first, without hashing: each sibling
 * subtree [start, end) is a complete aligned node, or ends at n (the right edge).
 */
export function inclusionParts(index: number, size: number): PathPart[] {
  const parts: PathPart[] = [];
  const sibling = (start: number, end: number): PathPart => {
    const width = end - start;
    if (isPowerOfTwo(width) && start % width === 0)
      return { node: { level: Math.log2(width), index: start / width } };
    if (end !== size) throw new Error('a sibling inside the tree is a complete node');
    return { edgeFrom: start };
  };
  let start = 0;
  let end = size;
  const stack: PathPart[] = [];
  while (end - start > 1) {
    let k = 1;
    while (k * 2 < end - start) k *= 2;
    if (index < start + k) {
      stack.push(sibling(start + k, end));
      end = start + k;
    } else {
      stack.push(sibling(start, start + k));
      start = start + k;
    }
  }
  for (let i = stack.length - 1; i >= 0; i--) parts.push(stack[i]!); // 0 ≤ i < stack.length
  return parts;
}

/** The tiles an inclusion proof of leaf `index` in a tree of `size` leaves reads (distinct). */
export function tilesForProof(index: number, size: number): NodeRef[] {
  const seen = new Map<string, NodeRef>();
  for (const part of inclusionParts(index, size)) {
    if (!('node' in part)) continue;
    const tile = tileOf(part.node);
    seen.set(`${tile.level}/${tile.index}`, tile);
  }
  return [...seen.values()];
}

/** Tiles by `${level}/${index}`, each the concatenated hashes stored for it. */
export type TileSet = ReadonlyMap<string, Uint8Array>;

function nodeFromTiles(tiles: TileSet, node: NodeRef): Buffer {
  const tile = tileOf(node);
  const data = tiles.get(`${tile.level}/${tile.index}`);
  const count = 2 ** (node.level % TILE_HEIGHT);
  const first = (node.index * count) % TILE_WIDTH;
  if (!data || data.length < (first + count) * HASH)
    throw new Error(`tile ${tile.level}/${tile.index} lacks the hashes of node ${node.level}/${node.index}`);
  let row: Buffer[] = [];
  for (let i = 0; i < count; i++)
    row.push(Buffer.from(data.subarray((first + i) * HASH, (first + i + 1) * HASH)));
  // count is a power of two, so every row pairs up exactly and the last holds one hash.
  while (row.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < row.length; i += 2) next.push(nodeHash(row[i]!, row[i + 1]!));
    row = next;
  }
  return row[0]!;
}

/** MTH(D[start:size]) from the frontier: the fold of its nodes that lie at or after `start`. */
function edgeHash(nodes: readonly Node[], start: number): Buffer {
  const inside: Buffer[] = [];
  let position = 0;
  for (const node of nodes) {
    if (position >= start) inside.push(node.hash);
    else if (position + 2 ** node.level > start) throw new Error('the right edge does not start on a node');
    position += 2 ** node.level;
  }
  let hash = inside.at(-1);
  if (hash === undefined) throw new Error('the right edge holds no node');
  for (let i = inside.length - 2; i >= 0; i--) hash = nodeHash(inside[i]!, hash); // 0 ≤ i < length
  return hash;
}

/** The RFC 9162 inclusion path of leaf `index` (deepest first), from the frontier and the tiles it names. */
export function inclusionPath(index: number, size: number, frontier: Uint8Array, tiles: TileSet): Buffer[] {
  const nodes = frontierNodes(size, frontier);
  return inclusionParts(index, size).map((part) =>
    'node' in part ? nodeFromTiles(tiles, part.node) : edgeHash(nodes, part.edgeFrom),
  );
}
