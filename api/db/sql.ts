/**
 * What the rest of the service sees of the database (api/db/database.ts opens one): SQL inside or
 * outside a transaction, typed queries, transactions.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Kysely } from 'kysely';
import type { DB } from './kysely.ts';

/** SQL access, inside or outside a transaction. */
export interface Sql {
  /** Plain SQL for hot paths and invariants; its row typed from the entity (`RowOf`), never by hand. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * A statement whose rows no one reads; resolves when the caller may go on. In a transaction of
   * `sqlTransaction` on PostgreSQL that is at once: the statement is on the wire, the next one
   * (or the commit) follows it without waiting, and its failure fails the transaction — nothing
   * is committed (api/db/prepared.ts). Everywhere else, once it has run, as `query`.
   */
  send(text: string, params?: unknown[]): Promise<void>;
  readonly kysely: Kysely<DB>; // typed queries, tables from the entities, run through `query` (api/db/kysely.ts)
}

export interface Database extends Sql {
  readonly orm: MikroORM;
  readonly embedded: boolean;
  /** A fresh entity manager (one per request or job; never the global one). */
  em(): EntityManager;
  /** Runs `work` in one transaction; `sql` and `em` both take part in it. */
  transaction<T>(work: (tx: Sql & { em: EntityManager }) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one transaction of plain SQL, no entity manager (the Record's sequencer). On
   * PostgreSQL it runs on a pooled connection with named prepared statements, as queries outside
   * a transaction do, pipelined, and plans them for reads by key (no sequential scans: see
   * preparedTransaction, api/db/prepared.ts); on the embedded database it is `transaction`.
   */
  sqlTransaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /** The connections in use, idle and waited for now (the metrics' pool gauges, api/plugins/metrics.ts). */
  poolUsage(): PoolUsage;
  close(): Promise<void>;
}

/**
 * PostgreSQL: pg's pool as it stands. Embedded: one connection that runs one operation at a time,
 * busy while any of this wrapper's queries or transactions runs and waited for by the others.
 */
export type PoolUsage = Record<'max' | 'busy' | 'idle' | 'waiting', number>;
