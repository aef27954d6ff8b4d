/**
 * PostgreSQL without the ORM in between: named prepared statements on the pool, and the Record's
 * pipelined transactions (api/db/database.ts opens them; docs/record.md, "Round trips").
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { sqlOver } from './kysely.ts';
import type { Sql } from './sql.ts';

/** How many distinct statement texts one process prepares; any further text goes unnamed. */
const MAX_PREPARED = 256;

/**
 * Statement names for the pool's connections: PostgreSQL parses and plans each text once per
 * connection instead of on every call. The name is a hash of the text, so one text is one
 * statement; the cap bounds what a process can leave prepared on the server if some caller builds
 * its SQL text dynamically.
 */
export function statementNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text: string): string | undefined => {
    // A text of several statements cannot be prepared; it keeps the simple protocol as before.
    if (text.includes(';')) return undefined;
    let name = names.get(text);
    if (!name && names.size < MAX_PREPARED) {
      name = `civitas_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };
}

/** `query` on one connection (a transaction's), as named prepared statements; the pool's is shared-reads.ts. */
function preparedQuery(client: pg.PoolClient, nameOf: (text: string) => string | undefined): Sql['query'] {
  return async <T>(text: string, params: unknown[] = []) => {
    const result = await client.query({ name: nameOf(text), text, values: params });
    return result.rows as T[];
  };
}

/**
 * A transaction straight on one pooled connection: begin, the work's statements (named, prepared
 * once per connection), commit; rollback if the work throws. A connection whose rollback failed is
 * discarded rather than handed back to the pool.
 *
 * The pool's connections pipeline (`pipeline: true`, node-postgres sends a statement without
 * waiting for the answer to the one before), so what needs no answer does not wait for one:
 * - `begin` goes out with the work's first statement. Were it to fail (the connection lost), the
 *   statements behind it fail too, and the work with them;
 * - a statement handed to `send` goes out at once and the work goes on; the commit follows it on
 *   the wire, and the transaction waits for every answer before it says how it ended. A statement
 *   that failed aborts the transaction on the server, which then answers the commit with ROLLBACK:
 *   the failure is thrown and nothing was committed.
 *
 * Sequential scans are off inside it (`set local`, sent with the begin). Every statement of the
 * Record's batch reads and writes by key, but PostgreSQL plans a prepared statement once and keeps
 * that plan until the next ANALYZE: planned while a table was small (a new database, or a server
 * whose autovacuum is off and never analyzes), it keeps scanning the whole table as it grows, and
 * the batch, which holds the Record's counter, slows with every imprint.
 */
export function preparedTransaction(
  pool: pg.Pool,
  nameOf: (text: string) => string | undefined,
): <T>(work: (tx: Sql) => Promise<T>) => Promise<T> {
  return async (work) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    // Every statement sent and not yet answered: `begin` first, then each `send`.
    const unanswered: Array<Promise<unknown>> = [];
    // The first of them that failed: the cause of every failure after it (the transaction aborted).
    let cause: { error: unknown } | undefined;
    const track = (statement: Promise<unknown>) => {
      statement.catch((error: unknown) => (cause ??= { error })); // thrown by `settle` or a later query
      unanswered.push(statement);
    };
    const settle = async () => {
      for (const statement of unanswered.splice(0)) await statement;
    };
    // `begin` waits in the socket's buffer for the work's first statement and goes out with it in
    // one write. Every statement after it goes out at once, sent or awaited: PostgreSQL works on
    // it while the API prepares the next one (docs/record.md, "Arrivals in one round trip": held
    // back for one write per round trip, the batch's statements waited for the API's last one).
    const socket = client.connection.stream;
    let gathering = false;
    const gather = () => {
      if (!gathering) socket.cork();
      gathering = true;
    };
    const flush = () => {
      if (gathering) socket.uncork();
      gathering = false;
    };
    try {
      gather();
      track(client.query('begin; set local enable_seqscan = off'));
      const prepared = preparedQuery(client, nameOf);
      // A statement the work waits for, failing because one sent before it failed, says so with
      // the sent statement's own error rather than "current transaction is aborted".
      const query = async <T>(text: string, params?: unknown[]): Promise<T[]> => {
        const answer = prepared<T>(text, params);
        flush();
        try {
          return await answer;
        } catch (error) {
          throw cause ? cause.error : error;
        }
      };
      const send: Sql['send'] = (text, params = []) => {
        track(prepared(text, params));
        flush();
        return Promise.resolve();
      };
      try {
        const result = await work(sqlOver(query, send));
        const commit = client.query('commit');
        flush();
        commit.catch(() => {}); // awaited below, once every statement before it has answered
        await settle();
        const ended = await commit;
        // Unreachable while every statement's failure is thrown by settle; kept as the invariant.
        if (ended.command !== 'COMMIT') throw new Error(`the transaction ended in ${ended.command}`);
        return result;
      } catch (error) {
        flush();
        await settle().catch(() => {});
        await client.query('rollback').catch((failure: Error) => (broken = failure));
        throw error;
      }
    } finally {
      client.release(broken);
    }
  };
}

/**
 * True when PostgreSQL itself answered a statement of a `preparedTransaction` with an error: the
 * transaction ended in ROLLBACK, so nothing of it was committed and its work may be done again.
 * A lost connection is not such an answer: its commit may or may not have happened.
 */
export function rolledBack(error: unknown): boolean {
  return error instanceof pg.DatabaseError;
}
