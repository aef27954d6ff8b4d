/**
 * The real process (`node api/server.ts`) refusing bad configuration clearly: invalid settings one
 * line each, no stack; a database that does not exist stops it with one line and is not created; an
 * unreachable one is waited for with backoff, one line per attempt; the printed address is the
 * configured origin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, serverUrl } from '../../helpers/db.ts';
import { admin, dropDatabase, withDatabase } from '../../helpers/postgres.ts';
import { freePort } from '../../helpers/ports.ts';
import { runServer } from '../../helpers/server-process.ts';

const DB_CREATE = fileURLToPath(new URL('../../../scripts/db-create.ts', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('refusing bad configuration', () => {
  it('lists invalid settings one line each, no stack trace', async () => {
    const started = runServer({ PORT: 'abc', CIVITAS_ORIGIN: 'not a url', CIVITAS_DATA_DIR: '/nonexistent' });
    expect(await started.exited).toBe(1);
    const lines = started.output().trim().split('\n');
    expect(lines[0]).toBe('civitas cannot start: invalid configuration');
    expect(lines.filter((line) => /^\s+PORT: /.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /^\s+CIVITAS_ORIGIN: /.test(line))).toHaveLength(1);
    expect(started.output()).not.toMatch(/ZodError|\n\s+at /);
  });

  it('waits for an unreachable database with backoff, one line per attempt', async () => {
    const port = await freePort();
    const started = runServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/civitas` });
    try {
      await started.until(/attempt 2, retrying/);
      const lines = started.output().trim().split('\n');
      expect(lines[0]).toMatch(/database 127\.0\.0\.1:\d+\/civitas unreachable \(ECONNREFUSED\); attempt 1/);
      expect(started.output()).not.toMatch(/\n\s+at |pg-pool/);
    } finally {
      await started.stop();
    }
  });

  it.skipIf(!serverUrl())('stops on a database that does not exist, and does not create it', async () => {
    const name = `civitas_typo_${process.pid}`;
    const started = runServer({ DATABASE_URL: withDatabase(serverUrl()!, name) });
    expect(await started.exited).toBe(1);
    expect(started.output().trim()).toMatch(
      new RegExp(
        `^civitas cannot start: the database .*/${name} does not exist; create it with \`npm run db:create\``,
      ),
    );
    const found = await admin(serverUrl()!, (client) =>
      client.query('select 1 from pg_database where datname = $1', [name]),
    );
    expect(found.rows).toHaveLength(0);
  });

  it.skipIf(!serverUrl())('creates it on `npm run db:create`, and then starts on it', async () => {
    const name = `civitas_created_${process.pid}`;
    const url = withDatabase(serverUrl()!, name);
    try {
      const created = runServer({ DATABASE_URL: url }, DB_CREATE);
      expect(await created.exited, created.output()).toBe(0);
      expect(created.output()).toMatch(/created the database .*\n[^]*migrations applied/);
      const again = runServer({ DATABASE_URL: url }, DB_CREATE);
      expect(await again.exited).toBe(0);
      expect(again.output()).toMatch(/exists already/);
      const port = await freePort();
      const started = runServer({ DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1' });
      try {
        await started.until(/civitas at /);
        const ready = await fetch(`http://127.0.0.1:${port}/_health`);
        expect(ready.status).toBe(200);
      } finally {
        await started.stop();
      }
    } finally {
      await dropDatabase(serverUrl()!, name);
    }
  });

  it('prints the configured origin as its address', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'civitas-start-'));
    dirs.push(dataDir);
    // On PostgreSQL a copy of the migrated template (an embedded data directory migrates from empty).
    const database = serverUrl() ? await createTestDatabase() : undefined;
    const started = runServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      CIVITAS_DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
    });
    try {
      await started.until(/civitas at /);
      expect(started.output()).toContain(`civitas at http://localhost:${port} (`);
      expect(started.output()).not.toMatch(/https?:\/\/127\.0\.0\.1/);
    } finally {
      await started.stop();
      await database?.drop();
    }
  });
});
