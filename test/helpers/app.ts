import type { FastifyInstance, InjectOptions } from 'fastify';
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

/**
 * The whole app in process on this file's own database; `app.inject` talks to it like a browser on
 * the service's own pages (see `asBrowser`), unless `browser: false` leaves every header as given.
 */
export async function createTestApp(
  options: Omit<BuildOptions, 'db' | 'clock'> & { clock?: TestClock; browser?: false } = {},
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
  if (options.browser !== false) asBrowser(app);
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

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A browser sends `Origin` on every POST it makes; a test that posts with a session cookie and says
 * nothing of where it comes from is a page of this service doing so. `app.inject` adds
 * `Origin: TEST_ORIGIN` to such a request (an unsafe method, a cookie, neither `Origin` nor
 * `Sec-Fetch-Site`), so the same-origin rule (api/plugins/same-origin.ts) lets the service's own
 * pages through in every test; tests of that rule name their hostile headers, or build the app with
 * `browser: false`.
 */
function asBrowser(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (
    options: InjectOptions | string,
  ) => ReturnType<FastifyInstance['inject']>;
  const browserlike = (options: InjectOptions | string) => {
    if (typeof options === 'string') return inject(options);
    const headers = { ...(options.headers ?? {}) } as Record<string, unknown>;
    const method = String(options.method ?? 'GET').toUpperCase();
    const named = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
    if (UNSAFE.has(method) && named('cookie') && !named('origin') && !named('sec-fetch-site'))
      headers.origin = TEST_ORIGIN;
    return inject({ ...options, headers: headers as InjectOptions['headers'] });
  };
  (app as unknown as { inject: unknown }).inject = browserlike;
}
