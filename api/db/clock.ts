/**
 * One clock for every process: the database's. Hosts whose own clocks are skewed would stamp the
 * Record and its receipts in an order the database never saw (issue 19). This clock reads the
 * database's `clock_timestamp()` at start and every minute, keeps the offset from this host's
 * clock (taken at the middle of the round trip), and answers `now()` from it without a round trip,
 * so the imprint write path pays nothing for it. It never goes backwards within a process: after a
 * resync that moves it back, it holds still until the database's time catches up.
 * Tests pass their own movable clock (TestClock) instead.
 */
import type { Clock } from '../context.ts';
import type { Sql } from './database.ts';
import { one } from './rows.ts';
import { sql as fragment } from 'kysely';

export const DB_CLOCK_SYNC_MS = 60_000;

export interface DatabaseClock extends Clock {
  /** Reads the database's time again and keeps the new offset. */
  sync(): Promise<void>;
  stop(): void;
}

export async function databaseClock(sql: Sql, everyMs = DB_CLOCK_SYNC_MS): Promise<DatabaseClock> {
  let offset = 0;
  let last = 0;
  const sync = async () => {
    const before = Date.now();
    const row = one(
      await sql.kysely
        .selectNoFrom(fragment<number>`(extract(epoch from clock_timestamp()) * 1000)::float8`.as('ms'))
        .execute(),
    );
    const after = Date.now();
    offset = row.ms - (before + after) / 2;
  };
  await sync();
  const timer = setInterval(() => void sync().catch(() => undefined), everyMs);
  timer.unref();
  return {
    now() {
      last = Math.max(last, Math.round(Date.now() + offset));
      return new Date(last);
    },
    sync,
    stop: () => clearInterval(timer),
  };
}
