/**
 * Statements on the pool, several to a connection (docs/ARCHITECTURE.md, "Data"). The statements
 * one turn of the event loop issues — a view's `Promise.all`, the requests read together — go out
 * on one pooled connection, pipelined (each with its own Sync: one failing fails only itself), in
 * one write, instead of each taking a connection and a write of its own.
 *
 * Why: a statement sent on its own cost the API process one socket write and PostgreSQL one
 * backend woken, and a view of ten reads held ten of the pool's connections at once. On a
 * two-core machine 43% of `/api/state`'s profile samples (about fifteen reads a request) fell in
 * those writes, and at 50 connections its requests queued for the pool; sharing, it answered 47–
 * 69% more requests a second (docs/scale.md, "Reads several to a connection"). A connection takes
 * at most SHARED_MAX statements, so one slow read holds back only the few sent with it.
 */
import pg from 'pg';
import type { Sql } from './sql.ts';

/** At most this many statements share one connection; the next one takes another. */
export const SHARED_MAX = 16;

interface Statement {
  name: string | undefined;
  text: string;
  values: unknown[];
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

/**
 * One pooled connection and the statements sharing it. It takes statements until the event loop's
 * check phase after it was opened (or until it holds SHARED_MAX), and goes back to the pool once
 * it takes no more and every statement is answered. A connection on which a statement failed is
 * discarded, as `pool.query` does.
 */
class SharedConnection {
  private taken = 0;
  private unanswered = 0;
  private closed = false;
  private released = false;
  private failed: Error | undefined;
  private client: pg.PoolClient | undefined;
  private waiting: Statement[] = [];
  private corked = false;

  /** The pool could not give a connection: every statement that shares this one fails with it. */
  private refused: { error: unknown } | undefined;
  /** A connection lost while checked out: pg fails its statements; this keeps the process up. */
  private readonly onLost = (error: Error) => void (this.failed ??= error);

  constructor(pool: pg.Pool, onClose: () => void) {
    pool.connect().then(
      (client) => {
        this.client = client;
        client.on('error', this.onLost);
        this.submit(this.waiting.splice(0));
      },
      (error: unknown) => {
        this.refused = { error };
        for (const statement of this.waiting.splice(0)) statement.reject(error);
        this.unanswered = 0;
      },
    );
    setImmediate(() => {
      this.closed = true;
      onClose();
      this.releaseWhenDone();
    });
  }

  get open(): boolean {
    return !this.closed && this.taken < SHARED_MAX;
  }

  run<T>(name: string | undefined, text: string, values: unknown[]): Promise<T[]> {
    this.taken++;
    this.unanswered++;
    return new Promise<T[]>((resolve, reject) => {
      const statement = { name, text, values, resolve: resolve as (rows: unknown[]) => void, reject };
      if (this.refused) {
        this.unanswered--;
        reject(this.refused.error);
      } else if (this.client) this.submit([statement]);
      else this.waiting.push(statement);
    });
  }

  /** Sends statements corked, so those issued together leave in one write (uncorked after this turn's microtasks). */
  private submit(statements: Statement[]): void {
    const client = this.client!;
    const socket = (
      client as unknown as {
        connection: { stream: NodeJS.WritableStream & { cork(): void; uncork(): void } };
      }
    ).connection.stream;
    if (!this.corked) {
      socket.cork();
      this.corked = true;
      queueMicrotask(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    for (const statement of statements) {
      client
        .query({ name: statement.name, text: statement.text, values: statement.values })
        .then(
          (result) => statement.resolve(result.rows),
          (error: Error) => {
            this.failed ??= error;
            statement.reject(error);
          },
        )
        .finally(() => {
          this.unanswered--;
          this.releaseWhenDone();
        });
    }
  }

  private releaseWhenDone(): void {
    if (!this.closed || this.unanswered > 0 || !this.client || this.released) return;
    this.released = true;
    this.client.off('error', this.onLost);
    this.client.release(this.failed);
  }
}

/** `query` on the pool as named prepared statements, several to a connection (above). */
export function sharedQuery(pool: pg.Pool, nameOf: (text: string) => string | undefined): Sql['query'] {
  let open: SharedConnection | undefined;
  return <T>(text: string, params: unknown[] = []) => {
    if (!open?.open) {
      const shared: SharedConnection = new SharedConnection(pool, () => {
        if (open === shared) open = undefined;
      });
      open = shared;
    }
    return open.run<T>(nameOf(text), text, params);
  };
}
