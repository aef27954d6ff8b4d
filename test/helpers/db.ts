import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../api/db/database.ts';

/** The real PostgreSQL the suite talks to, when one is configured (CI always configures one). */
export function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

export const TEMPLATE_DB = 'civitas_test_template';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Global setup: a migrated template database that each test file copies (fast, isolated). */
export async function prepareTemplate(url: string): Promise<void> {
  await admin(url, async (client) => {
    await client.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await client.query(`create database ${TEMPLATE_DB}`);
  });
  const database = await openDatabase({ url: withDatabase(url, TEMPLATE_DB) });
  await database.close();
}

export interface TestDatabase {
  db: Database;
  /** Connection string of this file's own database (real PostgreSQL only), for second processes. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A database of this test file's own: a fresh copy of the migrated template on the real
 * PostgreSQL, or a fresh in-memory embedded PostgreSQL when no server is configured.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = serverUrl();
  if (!url) {
    const db = await openDatabase({});
    return { db, drop: () => db.close() };
  }
  const name = `civitas_t_${randomBytes(6).toString('hex')}`;
  await admin(url, (client) => client.query(`create database ${name} template ${TEMPLATE_DB}`));
  const ownUrl = withDatabase(url, name);
  const db = await openDatabase({ url: ownUrl });
  return {
    db,
    url: ownUrl,
    async drop() {
      await db.close();
      await admin(url, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
