/**
 * `send` in a transaction (api/db/prepared.ts): on PostgreSQL the Record's transactions pipeline
 * what needs no answer, so a statement that was sent and failed must still fail the whole
 * transaction — nothing of it committed — and statements keep the order they were sent in.
 * The same holds on the embedded database, where `send` waits for its statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.query('create table pipelined_probe (n int primary key)');
});
afterAll(async () => t?.drop());

const rows = async () =>
  (await t.db.query<{ n: number }>('select n from pipelined_probe order by n')).map((row) => row.n);

describe('a transaction that sends statements without waiting for them', () => {
  it('commits what it sent, in the order it was sent', async () => {
    const seen = await t.db.sqlTransaction(async (tx) => {
      await tx.send('insert into pipelined_probe (n) values ($1)', [1]);
      await tx.send('insert into pipelined_probe (n) values ($1)', [2]);
      return tx.query<{ n: number }>('select count(*)::int as n from pipelined_probe');
    });
    expect(seen).toEqual([{ n: 2 }]);
    expect(await rows()).toEqual([1, 2]);
  });

  it('fails and commits nothing when a statement it sent fails, even its last one', async () => {
    for (const run of [t.db.sqlTransaction, t.db.transaction]) {
      await expect(
        run(async (tx) => {
          await tx.send('insert into pipelined_probe (n) values ($1)', [3]);
          await tx.send('insert into pipelined_probe (n) values ($1)', [1]); // taken: unique violation
          return 'answered';
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await rows()).toEqual([1, 2]);
    }
  });

  it("answers a statement behind a failed one with the failed one's own error", async () => {
    for (const run of [t.db.sqlTransaction, t.db.transaction]) {
      await expect(
        run(async (tx) => {
          await tx.send('insert into pipelined_probe (n) values ($1)', [1]); // taken: unique violation
          return tx.query('select count(*) from pipelined_probe');
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await rows()).toEqual([1, 2]);
    }
  });

  it('commits nothing it sent when the work throws', async () => {
    for (const run of [t.db.sqlTransaction, t.db.transaction]) {
      await expect(
        run(async (tx) => {
          await tx.send('insert into pipelined_probe (n) values ($1)', [5]);
          throw new Error('changed its mind');
        }),
      ).rejects.toThrow('changed its mind');
      expect(await rows()).toEqual([1, 2]);
    }
  });

  it('leaves its connection fit for the next transaction', async () => {
    await t.db.sqlTransaction((tx) => tx.send('insert into pipelined_probe (n) values ($1)', [4]));
    expect(await rows()).toEqual([1, 2, 4]);
  });
});
