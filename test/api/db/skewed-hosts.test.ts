/**
 * Issue 19: two hosts whose own clocks disagree by minutes write to one database, and the Record
 * and the receipt log still read in order. Each app here is built the way a deployed process is
 * (no clock given, its own database handle and so its own sequencer); the process clock is moved
 * between their writes, as if each request landed on a host with its own time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../api/app.ts';
import { openDatabase, type Database } from '../../../api/db/database.ts';
import { createTestDatabase, serverUrl, type TestDatabase } from '../../helpers/db.ts';
import { at } from '../../helpers/elements.ts';

const SKEW_MS = 5 * 60_000; // the second host runs five minutes behind
const RealDate = Date;
let skew = 0;
/** This process's clock, `skew` ms off the real time and running: every `Date` the app makes reads it. */
class HostDate extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(RealDate.now() + skew);
    else super(...(args as ConstructorParameters<DateConstructor>));
  }
  static now() {
    return RealDate.now() + skew;
  }
}

let database: TestDatabase | undefined;
let second: Database | undefined;
const apps: FastifyInstance[] = [];

const build = (db: Database) =>
  buildApp({
    db,
    site: false,
    config: { origin: 'http://civitas.test', rateWritesPerMin: 100_000, dataDir: '/nonexistent' },
  });

const hostClock = (ms: number) => (skew = ms);

beforeAll(async () => {
  if (!serverUrl()) return;
  database = await createTestDatabase();
  second = await openDatabase({ url: database.url });
}, 60_000);
afterAll(async () => {
  vi.unstubAllGlobals();
  for (const app of apps) await app.close();
  await second?.close();
  await database?.drop();
});

describe('two hosts with skewed clocks on one database', () => {
  it.skipIf(!serverUrl())('record imprints and receipts in an order their times agree with', async () => {
    vi.stubGlobal('Date', HostDate);
    hostClock(0);
    const onTime = await build(database!.db);
    hostClock(-SKEW_MS);
    const behind = await build(second!);
    apps.push(onTime, behind);

    for (let i = 0; i < 6; i++) {
      for (const [app, skew] of [
        [onTime, 0],
        [behind, -SKEW_MS],
      ] as const) {
        hostClock(skew);
        const res = await app.inject({
          method: 'POST',
          url: '/api/agent/imprint',
          payload: { agent: `host-${skew === 0 ? 'a' : 'b'}-${i}`, body: `turn ${i} on host ${skew}` },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    vi.unstubAllGlobals();

    const rows = await database!.db.query<{ sequence: string; created_at: Date; db_now: Date }>(
      'select sequence, created_at, now() as db_now from imprints order by sequence',
    );
    expect(rows).toHaveLength(12);
    for (let i = 1; i < rows.length; i++)
      expect(new Date(at(rows, i).created_at).getTime()).toBeGreaterThanOrEqual(
        new Date(at(rows, i - 1).created_at).getTime(),
      );
    // Stamped with the database's time, not five minutes behind it.
    const last = new Date(at(rows, rows.length - 1).created_at).getTime();
    expect(Math.abs(new Date(at(rows, 0).db_now).getTime() - last)).toBeLessThan(SKEW_MS / 2);

    const check = (await onTime.inject({ method: 'GET', url: '/api/linearizability' })).json();
    expect(check.record).toMatchObject({ checked: 12, violations: 0 });
    expect(check.receipts.violations).toBe(0);
    expect(check.linearizable).toBe(true);
  });
});
