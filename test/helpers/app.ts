import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../api/app.ts';
import type { Clock } from '../../api/context.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

/** A clock tests can move: naturalization and daily anchors depend on time. */
export class TestClock implements Clock {
  current: Date;
  constructor(start = '2026-11-22T12:00:00.000Z') {
    this.current = new Date(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(iso: string): void {
    this.current = new Date(iso);
  }
}

export const TEST_ORIGIN = 'http://civitas.test';

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The whole app in process on this file's own database; `app.inject` talks to it. */
export async function createTestApp(
  options: Omit<BuildOptions, 'db' | 'clock'> & { clock?: TestClock } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = options.clock ?? new TestClock();
  const app = await buildApp({
    ...options,
    db: database.db,
    clock,
    site: options.site ?? false,
    config: {
      origin: TEST_ORIGIN,
      rateReadsPerMin: 100_000,
      rateWritesPerMin: 100_000,
      dataDir: '/nonexistent',
      ...options.config,
    },
  });
  await app.ready();
  return {
    app,
    clock,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
