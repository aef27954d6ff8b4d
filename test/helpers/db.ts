import { readFile, writeFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { dumpEmbedded, openDatabase, type Database } from '../../api/db/database.ts';
import { meterDatabase } from './metered.ts';
import { copyTemplate, retireCopy, withDatabase } from './postgres.ts';

export { dropDatabase } from './postgres.ts';

/** The real PostgreSQL the suite talks to, when one is configured (CI always configures one). */
export function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
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

export interface TestDatabase {
  db: Database;
  /** Connection string of this file's own database (real PostgreSQL only), for second processes. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A database of this test file's own: a fresh copy of the run's migrated template on the real
 * PostgreSQL (see postgres.ts), or, when no server is configured, an in-memory embedded PostgreSQL
 * loaded from the run's migrated image (about a second, against four or more to migrate from
 * empty). Not migrated again: the copy is this run's migrations applied, so the check would only
 * find nothing pending, at two more ORM starts and three more connections per file (re-opening a
 * migrated database is tested where processes start: test/api/db/migrations.test.ts and the
 * multi-process tests).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = serverUrl();
  if (!url) {
    const db = await openDatabase({ image: await embeddedImage(), migrate: false });
    return { db, drop: () => db.close() };
  }
  const run = inject('dbRun');
  const name = await copyTemplate(url, run);
  meterDatabase(name);
  const ownUrl = withDatabase(url, name);
  const db = await openDatabase({ url: ownUrl, migrate: false });
  return {
    db,
    url: ownUrl,
    async drop() {
      await db.close();
      await retireCopy(url, run, name);
    },
  };
}

/** The run's migrated embedded image, read afresh per database (PGlite consumes the blob). */
async function embeddedImage(): Promise<Blob | undefined> {
  const path = inject('embeddedImage');
  return path ? new Blob([await readFile(path)]) : undefined;
}
