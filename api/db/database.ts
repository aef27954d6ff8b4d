import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';
import { sqlOver } from './kysely.ts';
import pg from 'pg';
import { ENTITIES } from './entities.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { checkDatabase } from './startup.ts';
import { openDataDir } from './embedded-dir.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { WIRE_PARSERS, wireTypes } from './wire-types.ts';
import { preparedTransaction, statementNames } from './prepared.ts';
import { sharedQuery } from './shared-reads.ts';
import type { Database, PoolUsage, Sql } from './sql.ts';

export type { Database, PoolUsage, Sql } from './sql.ts';

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
    // limit); types: int8 and numeric as numbers, as on the embedded database (api/db/wire-types.ts);
    // pipeline: a statement goes out without waiting for the one before to be answered, which only
    // a transaction that sends without awaiting uses (preparedTransaction, api/db/prepared.ts).
    driverOptions: { statement_timeout: settings.statementTimeoutMs, types: wireTypes(), pipeline: true },
  });
  const connection = orm.em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> };
  const pool = await connection.getNativeClient();
  const nameOf = statementNames();
  return wrap(orm, false, async () => {}, {
    query: sharedQuery(pool, nameOf),
    transaction: preparedTransaction(pool, nameOf),
    usage: () => ({
      max: settings.max,
      busy: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  });
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
  const { query, send, kysely } = sqlOver(outside?.query ?? inside);
  const transaction: Database['transaction'] = (work) =>
    counted(() => orm.em.fork().transactional((em) => work(Object.assign(sqlOf(em), { em }))));
  return {
    orm,
    embedded,
    em: () => orm.em.fork(),
    query,
    send,
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
