/**
 * The log's UTC days: their state, their leaves in order, and pages of them. A day's tree lives in
 * its stored interior (tiles.ts); a day logged before tiles is built from its leaves here (sealed
 * trees kept in memory, open days extended as receipts arrive) until the `ledger.tile` job has
 * tiled it.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { EMPTY_TREE_ROOT_HEX, buildTree, toHex } from '../../shared/ledger/index.ts';
import type { MerkleTree } from '../../shared/ledger/index.ts';
import { storedRoot, storedTree } from './tiles.ts';
import type { RowOf } from '../db/rows.ts';
import type { Receipt } from './entities.ts';
import { dayText } from './log.ts';

export interface DayState {
  date: string;
  /** leaves handed out (committed or in flight) */
  size: number;
  sealed: boolean;
}

export async function dayState(sql: Sql, date: string): Promise<DayState | null> {
  const [row] = await sql.kysely
    .selectFrom('log_days')
    .select([dayText('date').as('date'), 'size', 'sealed_at'])
    .where('date', '=', date)
    .execute();
  return row ? { date: row.date, size: row.size, sealed: row.sealed_at !== null } : null;
}

export interface DayLeaves {
  ids: string[];
  hashes: string[];
}

/**
 * The committed leaves of a day in leaf_index order, up to the first gap: a leaf whose transaction
 * is still in flight ends the prefix, so an open day's tree only ever grows by appending.
 */
export async function dayLeaves(sql: Sql, date: string): Promise<DayLeaves> {
  // Raw: a day's Merkle leaves, read on the tile path.
  const rows = await sql.query<Pick<RowOf<typeof Receipt>, 'id' | 'leaf_hash' | 'leaf_index'>>(
    'select id, leaf_hash, leaf_index from receipts where log_date = $1 order by leaf_index',
    [date],
  );
  const ids: string[] = [];
  const hashes: string[] = [];
  for (const row of rows) {
    if (row.leaf_index !== ids.length) break;
    ids.push(row.id);
    hashes.push(row.leaf_hash);
  }
  return { ids, hashes };
}

/** The size and root of a built tree. */
export function builtHead(tree: MerkleTree): { size: number; root_hash: string } {
  return { size: tree.size, root_hash: tree.size === 0 ? EMPTY_TREE_ROOT_HEX : toHex(tree.root) };
}

export interface LeavesPage {
  sealed: boolean;
  head: { size: number; root_hash: string };
  leaves: Array<{ leaf_index: number; id: string; leaf_hash: string }>;
}

/** Leaves [offset, offset + limit) of a day's tree with its size and root: a key range, whatever the day's size. */
export async function dayLeavesPage(
  ctx: Pick<AppContext, 'db'>,
  date: string,
  offset: number,
  limit: number,
): Promise<LeavesPage | null> {
  const tree = await storedTree(ctx.db, date);
  if (!tree) return null;
  if (tree.frontier === null) {
    const day = await dayTree(ctx, date, { date, size: tree.size, sealed: tree.sealed });
    if (!day) return null;
    // levels[0] holds the day's leaf hashes, one per id and in the same order.
    const leafHashes = day.tree.levels[0]!;
    const leaves = day.ids
      .slice(offset, offset + limit)
      .map((id, i) => ({ leaf_index: offset + i, id, leaf_hash: toHex(leafHashes[offset + i]!) }));
    return { sealed: day.sealed, head: builtHead(day.tree), leaves };
  }
  // Raw: a day's Merkle leaves, read on the tile path.
  const rows = await ctx.db.query<Pick<RowOf<typeof Receipt>, 'id' | 'leaf_hash' | 'leaf_index'>>(
    'select id, leaf_hash, leaf_index from receipts where log_date = $1 and leaf_index >= $2 and leaf_index < $3 order by leaf_index',
    [date, offset, Math.min(offset + limit, tree.size)],
  );
  return {
    sealed: tree.sealed,
    head: { size: tree.size, root_hash: toHex(storedRoot({ ...tree, frontier: tree.frontier })) },
    leaves: rows.map((row) => ({ leaf_index: row.leaf_index, id: row.id, leaf_hash: row.leaf_hash })),
  };
}

/** Built trees of sealed days never change: keep a few in memory (bounded). */
const SEALED_TREES = new Map<string, { tree: MerkleTree; ids: string[] }>();
const MAX_CACHED_TREES = 32;

export interface DayTree {
  date: string;
  tree: MerkleTree;
  ids: string[];
  sealed: boolean;
}

/** Open days grow by appending: keep their committed prefix and tree, read only newer leaves. */
const OPEN_DAYS = new Map<string, { ids: string[]; hashes: string[]; tree: MerkleTree }>();
const MAX_OPEN_DAYS = 8;

export async function dayTree(
  ctx: Pick<AppContext, 'db'>,
  date: string,
  state?: DayState | null,
): Promise<DayTree | null> {
  const day = state === undefined ? await dayState(ctx.db, date) : state;
  if (!day) return null;
  const cacheKey = `${dbIdentity(ctx.db)}:${date}`;
  if (day.sealed) {
    const hit = SEALED_TREES.get(cacheKey);
    if (hit) return { date, tree: hit.tree, ids: hit.ids, sealed: true };
  }
  const cached = OPEN_DAYS.get(cacheKey);
  const ids = cached ? [...cached.ids] : [];
  const hashes = cached ? [...cached.hashes] : [];
  // Raw: a day's Merkle leaves, read on the tile path.
  const rows = await ctx.db.query<Pick<RowOf<typeof Receipt>, 'id' | 'leaf_hash' | 'leaf_index'>>(
    'select id, leaf_hash, leaf_index from receipts where log_date = $1 and leaf_index >= $2 order by leaf_index',
    [date, ids.length],
  );
  for (const row of rows) {
    if (row.leaf_index !== ids.length) break;
    ids.push(row.id);
    hashes.push(row.leaf_hash);
  }
  const tree = cached && cached.ids.length === ids.length ? cached.tree : await buildTree(hashes);
  if (day.sealed && ids.length === day.size) {
    OPEN_DAYS.delete(cacheKey);
    if (SEALED_TREES.size >= MAX_CACHED_TREES)
      SEALED_TREES.delete(SEALED_TREES.keys().next().value as string);
    SEALED_TREES.set(cacheKey, { tree, ids });
  } else {
    OPEN_DAYS.delete(cacheKey);
    if (OPEN_DAYS.size >= MAX_OPEN_DAYS) OPEN_DAYS.delete(OPEN_DAYS.keys().next().value as string);
    OPEN_DAYS.set(cacheKey, { ids, hashes, tree });
  }
  return { date, tree, ids, sealed: day.sealed };
}

/** Distinguishes databases in one process (tests open many); objects get a stable number. */
const DB_IDS = new WeakMap<object, number>();
let nextDbId = 1;
function dbIdentity(db: object): number {
  let id = DB_IDS.get(db);
  if (id === undefined) {
    id = nextDbId++;
    DB_IDS.set(db, id);
  }
  return id;
}
