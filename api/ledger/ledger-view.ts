/**
 * GET /ledger (the page and its JSON): the newest receipts a page at a time by key (api/paging.ts:
 * receipt ids sort by time, newest first), the log's 30 newest days, and totals read from tallies
 * (receipts by step, migration 0041; days and sealed days, migration 0067), so no request counts
 * or sums a table that grows with the history.
 */
import type { AppContext } from '../context.ts';
import { RECEIPT_COLUMNS, type ReceiptRow } from './log.ts';
import { receiptView } from './projection.ts';
import { cursorAfter, decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { one } from '../db/rows.ts';
import { dayText } from './log.ts';
import { sql } from 'kysely';
import { constant } from '../db/kysely.ts';

/** Days of the log shown beside the receipts: the newest month. */
export const LEDGER_DAYS = 30;

export const LEDGER_ORDER: KeyOrder = {
  path: '/ledger',
  columns: [{ sql: 'id', type: 'text' }],
  order: 'desc',
};

async function receiptPage(ctx: AppContext, query: { limit: number; before?: string; after?: string }) {
  // `before=<receipt id>` is the older form of a next link and still resumes after that receipt.
  const cursor =
    decodeCursor(LEDGER_ORDER, query.after) ??
    (query.before ? cursorAfter(LEDGER_ORDER, [query.before], 'before') : null);
  const key = keyClause(LEDGER_ORDER, cursor, 2);
  const rows = await ctx.db.query<ReceiptRow>(
    `select ${RECEIPT_COLUMNS} from receipts where ${key.where} order by ${key.orderBy} limit $1`,
    [query.limit + 1, ...key.params],
  );
  const normalised = rows.map((row) => ({ ...row, leaf_index: row.leaf_index }));
  return pageOf(normalised, query.limit, cursor, (row) => [row.id]);
}

export async function ledgerView(ctx: AppContext, query: { limit: number; before?: string; after?: string }) {
  const page = await receiptPage(ctx, query);
  const [receipts, days, totalRows] = await Promise.all([
    Promise.all(page.rows.map((row) => receiptView(ctx, row))),
    ctx.db.kysely
      .selectFrom('log_days as d')
      .leftJoin('anchors as a', 'a.date', 'd.date')
      .select([
        dayText('d.date').as('date'),
        'd.size',
        sql<boolean>`d.sealed_at is not null`.as('sealed'),
        'a.root_hash',
        'a.anchor_hash',
      ])
      .orderBy('d.date', 'desc')
      // A literal (constant): given a parameter, a prepared statement's generic plan guesses the
      // row count and read every anchor.
      .limit(constant(LEDGER_DAYS))
      .execute(),
    ctx.db.kysely
      .selectNoFrom((eb) => [
        eb
          .selectFrom('receipt_tallies')
          .select((tally) => tally.fn.coalesce(tally.fn.sum<number>('receipts'), tally.lit(0)).as('n'))
          .as('receipts'),
        eb.selectFrom('record_tallies').select('value').where('name', '=', constant('log_days')).as('days'),
        eb.selectFrom('record_tallies').select('value').where('name', '=', constant('anchors')).as('sealed'),
      ])
      .execute(),
  ]);
  const totals = one(totalRows);
  const links = { limit: query.limit };
  return {
    ok: true as const,
    totals: {
      receipts: totals.receipts ?? 0,
      days: totals.days ?? 0,
      sealed_days: totals.sealed ?? 0,
    },
    receipts,
    ...pageFields(LEDGER_ORDER, page, query.limit, links),
    days: days.map((d) => ({
      date: d.date,
      size: d.size,
      sealed: d.sealed,
      root_hash: d.root_hash,
      anchor_hash: d.anchor_hash,
    })),
  };
}
