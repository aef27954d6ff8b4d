/**
 * A Record the scale bench measures: a PostgreSQL database (its URL) or an embedded one (its data
 * directory, as CIVITAS_DATA_DIR names it: anything that is not a postgres:// URL). How the bench
 * reads its ids and how its API process is told where it is.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../../api/db/database.ts';

export type BenchRecord = { url: string } | { dataDir: string };

/** `postgres://…` or `postgresql://…` → PostgreSQL; anything else → an embedded data directory. */
export function recordOf(value: string): BenchRecord {
  return /^postgres(ql)?:\/\//.test(value) ? { url: value } : { dataDir: resolve(value) };
}

/**
 * The API process's environment for a Record. PostgreSQL: its sessions check every second whether
 * their client is still there, so a query orphaned by a cut-off request ends. Embedded: DATABASE_URL
 * emptied (the bench's own environment may carry one), the data directory named.
 */
export function serverEnv(record: BenchRecord): Record<string, string> {
  if ('dataDir' in record) return { DATABASE_URL: '', CIVITAS_DATA_DIR: record.dataDir };
  const url = new URL(record.url);
  url.searchParams.set('options', '-c client_connection_check_interval=1000');
  return { DATABASE_URL: url.toString() };
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * Runs `work` with plain SQL on the Record, closed after. The embedded data directory is opened
 * as the service opens it (its lock held meanwhile: open it while no API process has it).
 */
export async function withRecord<T>(record: BenchRecord, work: (query: Query) => Promise<T>): Promise<T> {
  if ('dataDir' in record) {
    const db = await openDatabase({ dataDir: record.dataDir, migrate: false });
    try {
      return await work((sql) => db.query(sql));
    } finally {
      await db.close();
    }
  }
  const client = new pg.Client({ connectionString: record.url });
  await client.connect();
  try {
    return await work(async (sql) => (await client.query(sql)).rows as Record<string, unknown>[]);
  } finally {
    await client.end();
  }
}
