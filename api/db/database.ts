import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';
import { sqlOver, type DB } from './kysely.ts';
import pg from 'pg';
import { ENTITIES } from './entities.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { checkDatabase } from './startup.ts';
import { openDataDir } from './embedded-dir.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { WIRE_PARSERS, wireTypes } from './wire-types.ts';

/** SQL access, inside or outside a transaction. */
export interface Sql {
  /** Plain SQL for hot paths and invariants; its row typed from the entity (`RowOf`), never by hand. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
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
   * a transaction do, and plans them for reads by key (no sequential scans: see
   * preparedTransaction); on the embedded database it is `transaction`.
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

export interface DatabaseOptions {
  /** PostgreSQL URL; absent → embedded PGlite. */
  url?: string;
  /** Where the embedded database lives; absent (with no url) → in memory (tests). */
  dataDir?: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** Embedded, in memory: start from this dumped data directory (PGlite `dumpDataDir`) instead of an empty one. */
  image?: Blob;
  /** PostgreSQL only: the pool's size and timeouts (defaults: POOL_DEFAULTS). */
  pool?: Partial<PoolSettings>;
}

/** How many connections a process holds, and how long a statement or an idle connection may last. */
export interface PoolSettings {
  max: number;
  /** PostgreSQL's statement_timeout: a statement running longer is cancelled (an error, not a hang). */
  statementTimeoutMs: number;
  /** A connection idle this long is closed (0: never). */
  idleTimeoutMs: number;
}

/** CIVITAS_DB_POOL_MAX, CIVITAS_DB_STATEMENT_TIMEOUT_MS, CIVITAS_DB_IDLE_TIMEOUT_MS unset. */
export const POOL_DEFAULTS: PoolSettings = { max: 10, statementTimeoutMs: 15_000, idleTimeoutMs: 30_000 };

const MIGRATION_LOCK = 7_212_001; // pg_advisory_lock key: one migrator at a time across processes

function baseConfig() {
  return {
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS,
      snapshot: false,
      snapshotOnMigrate: false,
      silent: true,
      tableName: 'civitas_migrations',
    },
    debug: false,
    allowGlobalContext: false,
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (!options.url) {
    const embedded = await openEmbedded(options.dataDir, options.image);
    if (options.migrate !== false) await migrate(embedded);
    return embedded;
  }
  const settings = { ...POOL_DEFAULTS, ...options.pool };
  if (options.migrate !== false && settings.statementTimeoutMs > 0) {
    // A migration may rewrite a large table for longer than any request should take: it runs on
    // a pool of its own without the statement timeout, closed before serving begins.
    const migrator = await openPostgres(options.url, { ...settings, max: 1, statementTimeoutMs: 0 });
    try {
      await migrate(migrator, options.url);
    } finally {
      await migrator.close();
    }
    return openPostgres(options.url, settings);
  }
  const database = await openPostgres(options.url, settings);
  if (options.migrate !== false) await migrate(database, options.url);
  return database;
}

async function openPostgres(url: string, settings: PoolSettings): Promise<Database> {
  // MikroORM's migrator would create a missing database: refuse it first (api/db/startup.ts).
  await checkDatabase(url);
  const orm = await PostgresORM.init({
    ...baseConfig(),
    clientUrl: url,
    pool: { min: 0, max: settings.max, idleTimeoutMillis: settings.idleTimeoutMs },
    // statement_timeout is sent by pg at connect, so every connection of the pool carries it (0: no
    // limit); types: int8 and numeric as numbers, as on the embedded database (api/db/wire-types.ts).
    driverOptions: { statement_timeout: settings.statementTimeoutMs, types: wireTypes() },
  });
  const connection = orm.em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> };
  const pool = await connection.getNativeClient();
  const nameOf = statementNames();
  return wrap(orm, false, async () => {}, {
    query: preparedQuery(pool, nameOf),
    transaction: preparedTransaction(pool, nameOf),
    usage: () => ({
      max: settings.max,
      busy: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  });
}

/** How many distinct statement texts one process prepares; any further text goes unnamed. */
const MAX_PREPARED = 256;

/**
 * Queries outside a transaction, straight on the ORM's own pool (same connections, same type
 * parsers), as named prepared statements: PostgreSQL parses and plans each text once per
 * connection instead of on every call, and no query builder stands between the route and pg.
 * The name is a hash of the text, so one text is one statement; the cap bounds what a process can
 * leave prepared on the server if some caller builds its SQL text dynamically.
 */
function statementNames(): (text: string) => string | undefined {
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

function preparedQuery(
  pool: pg.Pool | pg.PoolClient,
  nameOf: (text: string) => string | undefined,
): Sql['query'] {
  return async <T>(text: string, params: unknown[] = []) => {
    const result = await pool.query({ name: nameOf(text), text, values: params });
    return result.rows as T[];
  };
}

/**
 * A transaction straight on one pooled connection: begin, the work's statements (named, prepared
 * once per connection), commit; rollback if the work throws. A connection whose rollback failed is
 * discarded rather than handed back to the pool.
 *
 * Sequential scans are off inside it (`set local`, sent with the begin: no extra round trip). Every
 * statement of the Record's batch reads and writes by key, but PostgreSQL plans a prepared
 * statement once and keeps that plan until the next ANALYZE: planned while a table was small (a new
 * database, or a server whose autovacuum is off and never analyzes), it keeps scanning the whole
 * table as it grows, and the batch, which holds the Record's counter, slows with every imprint.
 */
function preparedTransaction(
  pool: pg.Pool,
  nameOf: (text: string) => string | undefined,
): Database['sqlTransaction'] {
  return async (work) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin; set local enable_seqscan = off');
      try {
        const result = await work(sqlOver(preparedQuery(client, nameOf)));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch((failure: Error) => (broken = failure));
        throw error;
      }
    } finally {
      client.release(broken);
    }
  };
}

async function openEmbedded(dataDir?: string, image?: Blob): Promise<Database> {
  let release = async () => {};
  let pglite: PGlite;
  if (dataDir) {
    const dir = resolve(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    release = acquireDataDirLock(resolve(dataDir)); // PGlite does not lock it: two processes would corrupt it
    pglite = await openDataDir(dir, WIRE_PARSERS);
  } else {
    pglite = await PGlite.create({ ...(image ? { loadDataDir: image } : {}), parsers: WIRE_PARSERS });
  }
  const orm = await PgliteORM.init({ ...baseConfig(), driverOptions: { pglite } });
  return wrap(orm, true, async () => {
    await pglite.close();
    await release();
  });
}

/** The embedded database's whole data directory as a tarball, for `image` (tests copy one migrated database). */
export async function dumpEmbedded(database: Database): Promise<Blob> {
  const pglite = (database.orm.config.get('driverOptions') as { pglite?: PGlite } | undefined)?.pglite;
  if (!pglite) throw new Error('dumpEmbedded: not an embedded database');
  return pglite.dumpDataDir('none');
}

interface Outside {
  query: Sql['query'];
  transaction: Database['sqlTransaction'];
  usage: Database['poolUsage'];
}

function wrap(orm: MikroORM, embedded: boolean, onClose: () => Promise<void>, outside?: Outside): Database {
  // Kysely's raw compiled queries keep bind parameters ($1 …), in the em's transaction if any.
  const sqlOf = (em: EntityManager): Sql =>
    sqlOver(async <T>(text: string, params: unknown[] = []) => {
      const kysely = (em as unknown as { getKysely(): Kysely<unknown> }).getKysely();
      const result = await kysely.executeQuery<T>(CompiledQuery.raw(text, params));
      return result.rows as T[];
    });
  // Embedded: operations of this wrapper in flight, for poolUsage (PGlite runs one at a time).
  let inFlight = 0;
  const counted = <T>(work: () => Promise<T>): Promise<T> => {
    inFlight++;
    return work().finally(() => inFlight--);
  };
  const root = sqlOf(orm.em.fork());
  const inside: Sql['query'] = (text, params) => counted(() => root.query(text, params));
  const { query, kysely } = sqlOver(outside?.query ?? inside);
  const transaction: Database['transaction'] = (work) =>
    counted(() => orm.em.fork().transactional((em) => work(Object.assign(sqlOf(em), { em }))));
  return {
    orm,
    embedded,
    em: () => orm.em.fork(),
    query,
    kysely,
    transaction,
    sqlTransaction: outside?.transaction ?? ((work) => transaction(work)),
    poolUsage: outside?.usage ?? (() => embeddedUsage(inFlight)),
    async close() {
      await orm.close(true);
      await onClose();
    },
  };
}

function embeddedUsage(inFlight: number): PoolUsage {
  return { max: 1, busy: Math.min(inFlight, 1), idle: inFlight ? 0 : 1, waiting: Math.max(inFlight - 1, 0) };
}

/**
 * Applies pending migrations. On PostgreSQL a session advisory lock makes concurrent starts
 * safe: the second process waits, then finds nothing pending. PGlite is single-process.
 */
export async function migrate(database: Database, url?: string): Promise<void> {
  if (!url) {
    await database.orm.migrator.up();
    return;
  }
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await database.orm.migrator.up();
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await lock.end();
  }
}
