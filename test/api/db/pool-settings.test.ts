import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../api/config.ts';
import { openDatabase, type Database } from '../../../api/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';

let own: TestDatabase;
beforeAll(async () => {
  own = await createTestDatabase();
});
afterAll(async () => own?.drop());

describe('database pool settings', () => {
  it('reads size and timeouts from the environment, with safe defaults', () => {
    expect(loadConfig({}).dbPool).toEqual({ max: 10, statementTimeoutMs: 15_000, idleTimeoutMs: 30_000 });
    const set = loadConfig({
      CIVITAS_DB_POOL_MAX: '4',
      CIVITAS_DB_STATEMENT_TIMEOUT_MS: '2500',
      CIVITAS_DB_IDLE_TIMEOUT_MS: '0',
    });
    expect(set.dbPool).toEqual({ max: 4, statementTimeoutMs: 2500, idleTimeoutMs: 0 });
    expect(() => loadConfig({ CIVITAS_DB_POOL_MAX: '0' })).toThrow(/CIVITAS_DB_POOL_MAX/);
  });

  // PostgreSQL's statement_timeout: the embedded database runs one statement at a time in process.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'cancels a statement that outlasts the statement timeout, with an error',
    async () => {
      let db: Database | undefined;
      try {
        db = await openDatabase({ url: own.url!, migrate: false, pool: { statementTimeoutMs: 100 } });
        await expect(db.query('select pg_sleep(30)')).rejects.toThrow(/statement timeout/);
        await expect(db.transaction((tx) => tx.query('select pg_sleep(30)'))).rejects.toThrow(
          /statement timeout/,
        );
        // The pool is still usable afterwards.
        expect(await db.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
        const [row] = await db.query<{ statement_timeout: string }>('show statement_timeout');
        expect(row!.statement_timeout).toBe('100ms');
      } finally {
        await db?.close();
      }
    },
  );
});
