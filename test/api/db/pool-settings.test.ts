import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../api/config.ts';
import { openDatabase, type Database } from '../../../api/db/database.ts';
import { SHARED_MAX } from '../../../api/db/shared-reads.ts';
import { createTestDatabase, serverUrl, type TestDatabase } from '../../helpers/db.ts';
import { admin } from '../../helpers/postgres.ts';
import { until } from '../../helpers/wait.ts';

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
  it.skipIf(!serverUrl())(
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

  it.skipIf(!serverUrl())(
    'holds at most its size in connections, and closes them once idle past the idle timeout',
    async () => {
      let db: Database | undefined;
      try {
        db = await openDatabase({ url: own.url!, migrate: false, pool: { max: 2, idleTimeoutMs: 200 } });
        // More statements at once than one connection takes (api/db/shared-reads.ts): the pool
        // would open three connections, and holds two.
        const answers = await Promise.all(
          Array.from({ length: SHARED_MAX * 2 + 1 }, () =>
            db!.query<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep(0.01)'),
          ),
        );
        const pids = [...new Set(answers.map(([row]) => row!.pid))];
        expect(pids).toHaveLength(2);
        // The server's own view: the pool's connections leave once idle (bounded wait, no timing asserted).
        await until(
          'the idle connections to close',
          async () => {
            const { rows } = await admin(serverUrl()!, (client) =>
              client.query('select 1 from pg_stat_activity where pid = any($1)', [pids]),
            );
            return rows.length === 0 ? true : undefined;
          },
          { tries: 100, everyMs: 100 },
        );
      } finally {
        await db?.close();
      }
    },
  );
});
