/**
 * Daily census snapshots. The census of a UTC day counts what was recorded before that day ended:
 * humans and agents (two kinds, never summed), imprints ever, imprint bodies still held in the
 * window, and receipts. It is taken once the day is over, by the `people.census` job that exactly
 * one process performs (a transaction-scoped advisory lock; the date primary key makes a repeated
 * run a no-op), and it records its own receipt (`people.census`, subject `census:<date>`).
 */
import type { AppContext } from '../context.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import { utcDay } from '../../shared/time.ts';
import { cursorAfter, decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { one } from '../db/rows.ts';
import type { Row } from '../db/kysely.ts';
import { sql } from 'kysely';

/** pg_try_advisory_xact_lock key of the census job. */
export const CENSUS_LOCK = 7_212_008;
/** At most this many missing days are filled in one run (after a long outage). */
export const CENSUS_BACKFILL_DAYS = 31;

/** A census as SNAPSHOT_COLUMNS reads it: every column, the date and time as text. */
export type CensusSnapshot = Row<'census_snapshots'>;

export type CensusResult =
  | { taken: true; census: CensusSnapshot }
  | {
      taken: false;
      reason: 'day_not_over' | 'already_taken' | 'locked' | 'invalid_date';
      census?: CensusSnapshot;
    };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

const SNAPSHOT_COLUMNS = `to_char(date, 'YYYY-MM-DD') as date, humans, agents, imprints_lifetime, imprints_retained, receipts,
  to_char(taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as taken_at, receipt_id`;

async function takeLocked(
  ctx: AppContext,
  tx: import('../db/database.ts').Sql,
  date: string,
): Promise<CensusResult> {
  const [existing] = await tx.query<CensusSnapshot>(
    `select ${SNAPSHOT_COLUMNS} from census_snapshots where date = $1`,
    [date],
  );
  if (existing) return { taken: false, reason: 'already_taken', census: existing };
  const end = `${nextDay(date)}T00:00:00.000Z`;
  const counts = one(
    await tx.query<
      Pick<
        Row<'census_snapshots'>,
        'humans' | 'agents' | 'imprints_lifetime' | 'imprints_retained' | 'receipts'
      >
    >(
      `select (select count(*) from sovereigns where created_at < $1) as humans,
            (select count(*) from agents where first_seen_at < $1) as agents,
            (select count(*) from imprints where created_at < $1) as imprints_lifetime,
            (select count(*) from imprints where created_at < $1 and body is not null) as imprints_retained,
            (select count(*) from receipts where recorded_at < $1) as receipts`,
      [end],
    ),
  );
  const now = ctx.clock.now();
  const receipt = await recordReceipt(tx, { step: 'people.census', subject: `census:${date}`, at: now });
  const [row] = await tx.query<CensusSnapshot>(
    `insert into census_snapshots (date, humans, agents, imprints_lifetime, imprints_retained, receipts, taken_at, receipt_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (date) do nothing
     returning ${SNAPSHOT_COLUMNS}`,
    [
      date,
      counts.humans,
      counts.agents,
      counts.imprints_lifetime,
      Math.min(counts.imprints_retained, RECORD_WINDOW),
      counts.receipts,
      now.toISOString(),
      receipt.id,
    ],
  );
  if (!row) throw new Error(`census of ${date} was taken concurrently under the lock`);
  return { taken: true, census: row };
}

/**
 * Takes the census of `date` (YYYY-MM-DD, UTC) if that day is over and none was taken yet.
 * Returns `locked` when another process is taking a census right now.
 */
export async function takeCensus(ctx: AppContext, date: string): Promise<CensusResult> {
  if (
    !DATE.test(date) ||
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    utcDay(new Date(`${date}T00:00:00Z`)) !== date
  ) {
    return { taken: false, reason: 'invalid_date' };
  }
  if (date >= utcDay(ctx.clock.now())) return { taken: false, reason: 'day_not_over' };
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.kysely
      .selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(CENSUS_LOCK)]).as('locked'))
      .execute();
    if (!lock?.locked) return { taken: false, reason: 'locked' } as const;
    return takeLocked(ctx, tx, date);
  });
}

/**
 * The census job: takes every missing census from the day after the newest one (or the first day
 * anything was recorded) up to yesterday, at most CENSUS_BACKFILL_DAYS per run.
 */
export async function runCensusJob(ctx: AppContext): Promise<{ ran: boolean; taken: string[] }> {
  const today = utcDay(ctx.clock.now());
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.kysely
      .selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(CENSUS_LOCK)]).as('locked'))
      .execute();
    if (!lock?.locked) return { ran: false, taken: [] };
    const [bounds] = await tx.kysely
      .selectNoFrom([
        sql<string | null>`(select to_char(max(date), 'YYYY-MM-DD') from census_snapshots)`.as('last'),
        sql<string | null>`to_char(least(
          (select min(created_at) from sovereigns), (select min(first_seen_at) from agents), (select min(recorded_at) from receipts)
        ) at time zone 'UTC', 'YYYY-MM-DD')`.as('first'),
      ])
      .execute();
    let date = bounds?.last ? nextDay(bounds.last) : (bounds?.first ?? null);
    if (!date) return { ran: true, taken: [] };
    const oldest = new Date(Date.parse(`${today}T00:00:00Z`) - CENSUS_BACKFILL_DAYS * 86_400_000)
      .toISOString()
      .slice(0, 10);
    if (date < oldest) date = oldest;
    const taken: string[] = [];
    while (date < today) {
      const result = await takeLocked(ctx, tx, date);
      if (result.taken) taken.push(date);
      date = nextDay(date);
    }
    return { ran: true, taken };
  });
}

/** The censuses' order: newest day first, keyed by the date (one snapshot a day). */
export const CENSUS_ORDER: KeyOrder = {
  path: '/api/censuses',
  columns: [{ sql: 'date', type: 'date' }],
  order: 'desc',
};

/**
 * GET /api/censuses: snapshots newest first, a page by key (api/paging.ts). `before=<date>` is the
 * older form of a next link and still resumes after that date.
 */
export async function censusList(ctx: AppContext, query: { limit: number; before?: string; after?: string }) {
  const cursor =
    decodeCursor(CENSUS_ORDER, query.after) ??
    (query.before ? cursorAfter(CENSUS_ORDER, [query.before], 'before') : null);
  const key = keyClause(CENSUS_ORDER, cursor, 2);
  const rows = await ctx.db.query<CensusSnapshot>(
    `select ${SNAPSHOT_COLUMNS} from census_snapshots where ${key.where} order by ${key.orderBy} limit $1`,
    [query.limit + 1, ...key.params],
  );
  const page = pageOf(rows, query.limit, cursor, (c) => [c.date]);
  const links = { limit: query.limit };
  return {
    ok: true as const,
    schema: 'civitas.censuses.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    basis:
      'The census of a UTC day counts what was recorded before that day ended; it is taken once the day is over. Humans and agents are two kinds and are never summed.',
    window: RECORD_WINDOW,
    censuses: page.rows,
    ...pageFields(CENSUS_ORDER, page, query.limit, links),
  };
}
