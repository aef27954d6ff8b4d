/**
 * The stored tree interior of each log day (docs/ledger.md, "Tiles"): written as leaves are
 * appended, read by proofs, signed heads and sealing, so none of them rebuilds a tree. The
 * arithmetic is tile-math.ts; this file only reads and writes PostgreSQL.
 */
import type { Sql } from '../db/database.ts';
import type { RowOf } from '../db/rows.ts';
import type { LogDay, LogTile } from './entities.ts';
import { appendToTree, inclusionPath, rootOf, tilesForProof, type TileAppend } from './tile-math.ts';

/** A day's tree as stored: its size and frontier (null for a day logged before tiles). */
export interface StoredTree {
  date: string;
  size: number;
  sealed: boolean;
  frontier: Uint8Array | null;
}

export async function storedTree(sql: Sql, date: string): Promise<StoredTree | null> {
  // Raw: read by every proof, signed head and seal.
  const [row] = await sql.query<
    Pick<RowOf<typeof LogDay>, 'date' | 'size' | 'frontier'> & { sealed: boolean }
  >(
    `select to_char(date, 'YYYY-MM-DD') as date, size, sealed_at is not null as sealed, frontier from log_days where date = $1`,
    [date],
  );
  return row ? { date: row.date, size: row.size, sealed: row.sealed, frontier: bytes(row.frontier) } : null;
}

/** The drivers hand bytea over as Buffer (pg) or Uint8Array (PGlite); null stays null. */
function bytes(value: Uint8Array | null): Uint8Array | null {
  return value === null ? null : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

/** The day's root from its stored frontier: O(log n) hashes, no leaf read. */
export function storedRoot(tree: StoredTree & { frontier: Uint8Array }): Buffer {
  return rootOf(tree.size, tree.frontier);
}

/**
 * The RFC 9162 inclusion path of leaf `index` in the stored tree: one read of at most one tile per
 * tile level (three for a million leaves), then at most 255 hashes per tile.
 */
export async function storedInclusionPath(
  sql: Sql,
  tree: StoredTree & { frontier: Uint8Array },
  index: number,
): Promise<Buffer[]> {
  const wanted = tilesForProof(index, tree.size);
  // Raw: the proof's tiles in one read, joined to the wanted (level, idx) keys.
  const rows =
    wanted.length === 0
      ? []
      : await sql.query<Pick<RowOf<typeof LogTile>, 'level' | 'idx' | 'hashes'>>(
          `select t.level, t.idx, t.hashes from log_tiles t
             join unnest($2::smallint[], $3::bigint[]) as w(level, idx) on t.level = w.level and t.idx = w.idx
            where t.date = $1`,
          [tree.date, wanted.map((t) => t.level), wanted.map((t) => t.index)],
        );
  const tiles = new Map(rows.map((row) => [`${row.level}/${row.idx}`, bytes(row.hashes)!]));
  return inclusionPath(index, tree.size, tree.frontier, tiles);
}

/** The interior update of a run of leaves: its statement as CTEs, what it must write, the new frontier. */
export interface TileUpdate {
  ctes: string;
  params: unknown[];
  expect: TileAppend[];
  frontier: Buffer;
}

/**
 * The statement that keeps a day's interior after its leaves were claimed (appendLeaves in
 * receipts.ts), as the CTEs of one statement (writeTiles adds its check): the new frontier, and
 * the hashes each tile gains appended to it. `start` is the day's size before the claim, `frontier` the
 * frontier the claim returned; the caller still holds the day's row lock, so no other writer can
 * have moved either. Null for a day logged before tiles (the `ledger.tile` job builds those).
 */
export function tileUpdate(
  date: string,
  start: number,
  frontier: Uint8Array | null,
  leafHashes: readonly string[],
  next: number,
): TileUpdate | null {
  if (frontier === null) return null;
  const appended = appendToTree(
    start,
    frontier,
    leafHashes.map((hash) => Buffer.from(hash, 'hex')),
  );
  const p = next;
  return {
    ctes: `frontier as (update log_days set frontier = decode($${p + 1}, 'hex') where date = $${p}::date),
       tiled as (
         insert into log_tiles (date, level, idx, hashes)
         select $${p}::date, t.level, t.idx, decode(t.hashes, 'hex')
         from unnest($${p + 2}::smallint[], $${p + 3}::bigint[], $${p + 4}::text[]) as t(level, idx, hashes)
         on conflict (date, level, idx) do update set hashes = log_tiles.hashes || excluded.hashes
         returning level, idx, length(hashes) as bytes)`,
    params: [
      date,
      appended.frontier.toString('hex'),
      appended.tiles.map((t) => t.level),
      appended.tiles.map((t) => t.index),
      appended.tiles.map((t) => t.hashes.toString('hex')),
    ],
    expect: appended.tiles,
    frontier: appended.frontier,
  };
}

/**
 * Writes a tileUpdate (its CTEs, one statement) and checks, in the same statement, what it wrote:
 * a tile that is not exactly as long as the frontier implies (a gap, a lost write) raises an
 * error, which fails the transaction instead of storing an interior that disagrees with the
 * leaves. Plain SQL has no `raise`: the message is cast to an integer, which fails with the
 * message in the error ("invalid input syntax for type integer: "log tile …""); it is evaluated
 * only for a row that disagrees, so a statement that finds none returns no row and no error. How a receipt's append keeps the day's interior under
 * its row lock, and how the `ledger.tile` job builds the interior of a day logged before tiles,
 * page by page. Nothing is read back, so it is sent (`send`): in the Record's pipelined
 * transaction it goes out with the commit (api/db/prepared.ts).
 */
export async function writeTiles(
  tx: Sql,
  update: Pick<TileUpdate, 'ctes' | 'params' | 'expect'>,
): Promise<void> {
  const p = update.params.length + 1;
  await tx.send(
    `with ${update.ctes}
     select ('log tile ' || t.level || '/' || t.idx || ' is not where the frontier says it ends')::int
       from tiled t join unnest($${p}::smallint[], $${p + 1}::bigint[], $${p + 2}::int[]) as e(level, idx, bytes)
         on t.level = e.level and t.idx = e.idx
      where t.bytes <> e.bytes`,
    [
      ...update.params,
      update.expect.map((t) => t.level),
      update.expect.map((t) => t.index),
      update.expect.map((t) => t.offset * 32 + t.hashes.length),
    ],
  );
}
