import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { dumpEmbedded, openDatabase, type Database } from '../../api/db/database.ts';

/** The real PostgreSQL the suite talks to, when one is configured (CI always configures one). */
export function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

/** The migrated template of this run (named by the global setup). */
function templateDb(): string {
  return inject('templateDb');
}

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
export async function prepareTemplate(url: string, name: string): Promise<void> {
  await admin(url, (client) => client.query(`create database ${name}`));
  const database = await openDatabase({ url: withDatabase(url, name) });
  await database.close();
}

/** Global setup, embedded: migrate one in-memory database and keep its data directory as a tarball. */
export async function prepareEmbeddedImage(path: string): Promise<void> {
  const database = await openDatabase({});
  try {
    await writeFile(path, Buffer.from(await (await dumpEmbedded(database)).arrayBuffer()));
  } finally {
    await database.close();
  }
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await admin(url, (client) => client.query(`drop database if exists ${name} with (force)`));
}

export interface TestDatabase {
  db: Database;
  /** Connection string of this file's own database (real PostgreSQL only), for second processes. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A database of this test file's own: a fresh copy of the migrated template on the real
 * PostgreSQL, or, when no server is configured, an in-memory embedded PostgreSQL loaded from
 * the run's migrated image (about a second, against four or more to migrate from empty).
 * Migrations still run: they find nothing pending on the image.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = serverUrl();
  if (!url) {
    const db = await openDatabase({ image: await embeddedImage() });
    return { db, drop: () => db.close() };
  }
  const name = `civitas_t_${randomBytes(6).toString('hex')}`;
  await admin(url, (client) => client.query(`create database ${name} template ${templateDb()}`));
  const ownUrl = withDatabase(url, name);
  const db = await openDatabase({ url: ownUrl });
  return {
    db,
    url: ownUrl,
    async drop() {
      await db.close();
      await dropDatabase(url, name);
    },
  };
}

/** The run's migrated embedded image, read afresh per database (PGlite consumes the blob). */
async function embeddedImage(): Promise<Blob | undefined> {
  const path = inject('embeddedImage');
  return path ? new Blob([await readFile(path)]) : undefined;
}
