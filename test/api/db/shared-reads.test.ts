/**
 * Statements on the pool, several to a connection (api/db/shared-reads.ts): those issued together
 * go out on one connection and each gets its own answer; one that fails fails alone; past
 * SHARED_MAX the next statements take another connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../api/db/database.ts';
import { SHARED_MAX } from '../../../api/db/shared-reads.ts';
import { createTestDatabase, serverUrl, type TestDatabase } from '../../helpers/db.ts';

let own: TestDatabase;
let db: Database;
beforeAll(async () => {
  own = await createTestDatabase();
  if (own.url) db = await openDatabase({ url: own.url, migrate: false, pool: { max: 4 } });
});
afterAll(async () => {
  await db?.close();
  await own?.drop();
});

type Pid = { pid: number; n: number };
const pidOf = (n: number) => db.query<Pid>('select pg_backend_pid() as pid, $1::int as n', [n]);

describe.skipIf(!serverUrl())('statements on the pool', () => {
  it('issued together share one connection, each with its own answer, in order', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => pidOf(n)));
    expect(answers.map(([row]) => row?.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(answers.map(([row]) => row?.pid)).size).toBe(1);
  });

  it('fail one at a time: a statement that fails takes none sent with it down', async () => {
    const [before, failing, after] = await Promise.allSettled([pidOf(1), db.query('select 1 / 0'), pidOf(2)]);
    expect(before).toMatchObject({ status: 'fulfilled', value: [{ n: 1 }] });
    expect(failing).toMatchObject({ status: 'rejected', reason: { message: 'division by zero' } });
    expect(after).toMatchObject({ status: 'fulfilled', value: [{ n: 2 }] });
    // The pool goes on answering.
    expect(await pidOf(3)).toMatchObject([{ n: 3 }]);
  });

  it('past SHARED_MAX at once, take another connection', async () => {
    const answers = await Promise.all(Array.from({ length: SHARED_MAX + 1 }, (_, n) => pidOf(n)));
    const pids = answers.map(([row]) => row?.pid);
    expect(new Set(pids.slice(0, SHARED_MAX)).size).toBe(1);
    expect(pids[SHARED_MAX]).not.toBe(pids[0]);
  });

  it('issued in later turns of the event loop take a connection of their own turn', async () => {
    const first = pidOf(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = pidOf(2);
    const [[a], [b]] = await Promise.all([first, second]);
    expect(a?.n).toBe(1);
    expect(b?.n).toBe(2);
  });
});
