/**
 * A day's leaves read as a stream, in bounded memory: the root they make (sealing's check), and
 * the tiles of a day logged before tiles existed (the `ledger.tile` job).
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { appendToTree, rootOf } from './tile-math.ts';
import type { RowOf } from '../db/rows.ts';
import type { LogDay, Receipt } from './entities.ts';
import { tileUpdate, writeTiles } from './tiles.ts';

/** pg_try_advisory_xact_lock key of the tiling job. */
export const TILE_LOCK = 7_212_060;

/** Leaves read per statement: a key range of the (log_date, leaf_index) index. */
const PAGE = 8192;

/** Calls `each` with the day's leaf hashes in order, a page at a time, for leaves [0, size). */
async function eachPage(
  sql: Sql,
  date: string,
  size: number,
  each: (start: number, hashes: string[]) => Promise<void>,
  page = PAGE,
): Promise<void> {
  for (let start = 0; start < size; start += page) {
    const end = Math.min(start + page, size);
    // Raw: the leaves streamed by key range, on sealing's and tiling's path.
    const rows = await sql.query<Pick<RowOf<typeof Receipt>, 'leaf_hash' | 'leaf_index'>>(
      'select leaf_hash, leaf_index from receipts where log_date = $1 and leaf_index >= $2 and leaf_index < $3 order by leaf_index',
      [date, start, end],
    );
    if (rows.length !== end - start || rows.some((row, i) => row.leaf_index !== start + i))
      throw new Error(`day ${date} lacks committed leaves in [${start}, ${end})`);
    await each(
      start,
      rows.map((row) => row.leaf_hash),
    );
  }
}

/**
 * The root of the day's first `size` leaves, streamed: memory O(page + log n), whatever the day's
 * size (`page`: leaves per statement; tests vary it to cross page edges).
 */
export async function streamedRoot(sql: Sql, date: string, size: number, page = PAGE): Promise<Buffer> {
  let frontier: Uint8Array = new Uint8Array(0);
  await eachPage(
    sql,
    date,
    size,
    async (start, hashes) => {
      frontier = appendToTree(
        start,
        frontier,
        hashes.map((hash) => Buffer.from(hash, 'hex')),
      ).frontier;
    },
    page,
  );
  return rootOf(size, frontier);
}

/**
 * Builds the tiles and frontier of every day that has none (a day logged before migration 0060,
 * or rows written by a bulk loader), one day per transaction, holding the day's row lock so no
 * receipt is appended meanwhile. One process does it (TILE_LOCK); a day already tiled is skipped.
 */
export async function tileUntiledDays(
  ctx: Pick<AppContext, 'db'>,
): Promise<{ ran: boolean; tiled: string[] }> {
  const tiled: string[] = [];
  for (;;) {
    const outcome = await ctx.db.transaction(async (tx) => {
      const [lock] = await tx.kysely
        .selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(TILE_LOCK)]).as('locked'))
        .execute();
      if (!lock?.locked) return 'busy' as const;
      // Raw: the untiled day under its row lock (`for update`), then its interior rewritten.
      const [day] = await tx.query<Pick<RowOf<typeof LogDay>, 'date' | 'size'>>(
        `select to_char(date, 'YYYY-MM-DD') as date, size from log_days where frontier is null order by date limit 1 for update`,
      );
      if (!day) return 'done' as const;
      await tx.query(`delete from log_tiles where date = $1`, [day.date]);
      await tx.query(`update log_days set frontier = ''::bytea where date = $1`, [day.date]);
      let frontier: Uint8Array = new Uint8Array(0);
      await eachPage(tx, day.date, day.size, async (start, hashes) => {
        const update = tileUpdate(day.date, start, frontier, hashes, 1)!;
        await writeTiles(tx, update);
        frontier = update.frontier;
      });
      return day.date;
    });
    if (outcome === 'busy') return { ran: false, tiled };
    if (outcome === 'done') return { ran: true, tiled };
    tiled.push(outcome);
  }
}
