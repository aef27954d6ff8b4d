/**
 * Issue 19: times that order the Record and the receipts come from one clock, the database's, so
 * two hosts with skewed clocks agree. A host whose own clock is an hour behind still reads the
 * database's time, without a round trip per reading, and never goes backwards.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseClock } from '../../../api/db/clock.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { missing } from '../../helpers/elements.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await database?.drop();
});

const databaseNow = async () => {
  const [row = missing()] = await database.db.query<{ ms: string | number }>(
    'select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms',
  );
  return Number(row.ms);
};

describe('the database clock', () => {
  it("reads the database's time on a host whose clock is skewed, and never goes backwards", async () => {
    const real = Date.now.bind(Date);
    const skewed = vi.spyOn(Date, 'now').mockImplementation(() => real() - 3_600_000); // an hour behind
    const clock = await databaseClock(database.db);
    try {
      const reading = clock.now().getTime();
      const truth = await databaseNow();
      expect(Math.abs(truth - reading)).toBeLessThan(60_000); // not an hour
      const other = await databaseClock(database.db); // a second host, with the right time
      skewed.mockImplementation(() => real());
      expect(Math.abs(other.now().getTime() - clock.now().getTime())).toBeLessThan(60_000);
      other.stop();
      // A resync that would move time back (the host clock jumps ahead then the offset is re-read) never does.
      const before = clock.now().getTime();
      skewed.mockImplementation(() => real() - 7_200_000);
      expect(clock.now().getTime()).toBeGreaterThanOrEqual(before);
    } finally {
      clock.stop();
      skewed.mockRestore();
    }
  });
});
