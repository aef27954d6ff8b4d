import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../api/db/database.ts';
import { MIGRATIONS } from '../../../api/db/migrations/index.ts';
import { dropDatabase, serverUrl } from '../../helpers/db.ts';
import { startApiProcess } from '../../helpers/processes.ts';
import { at } from '../../helpers/elements.ts';

const url = serverUrl();

let migrated: Promise<string> | undefined;
/** An embedded data directory on disk, migrated from empty and closed again; removed after the file. */
function migratedDataDir(): Promise<string> {
  migrated ??= (async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'civitas-embedded-'));
    await (await openDatabase({ dataDir })).close();
    return dataDir;
  })();
  return migrated;
}

afterAll(async () => {
  const dataDir = await migrated?.catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('migrations', () => {
  it.runIf(url)(
    'run once when two API processes start at the same moment on an empty database',
    async () => {
      const name = `civitas_mig_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const dbUrl = new URL(url!);
      dbUrl.pathname = `/${name}`;
      try {
        const [a, b] = await Promise.all([
          startApiProcess({ DATABASE_URL: dbUrl.toString() }),
          startApiProcess({ DATABASE_URL: dbUrl.toString() }),
        ]);
        const health = await Promise.all([fetch(`${a.url}/health/live`), fetch(`${b.url}/health/live`)]);
        expect(health.map((r) => r.status)).toEqual([200, 200]);
        await Promise.all([a.stop(), b.stop()]);
        const client = new pg.Client({ connectionString: dbUrl.toString() });
        await client.connect();
        const applied = await client.query('select name from civitas_migrations order by id');
        const keys = await client.query('select name from service_keys order by name');
        const signing = await client.query('select retired_at from signing_keys');
        await client.end();
        expect(applied.rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
        expect(keys.rows.map((r) => r.name)).toEqual(['tag_secret']);
        // Two first starts at once still leave exactly one signing key, the active one.
        expect(signing.rows).toEqual([{ retired_at: null }]);
      } finally {
        await admin.end();
        await dropDatabase(url!, name);
      }
    },
    120_000,
  );

  // Both embedded cases use a database on disk migrated from empty (tens of seconds on a loaded
  // machine, hence the long timeouts): migrated once, by whichever of the two runs first.
  it('persist the embedded database across restarts', async () => {
    const dataDir = await migratedDataDir();
    const first = await openDatabase({ dataDir });
    await first.query("insert into service_keys (name, value) values ('probe', 'kept')");
    await first.close();
    const again = await openDatabase({ dataDir });
    const rows = await again.query<{ value: string }>("select value from service_keys where name = 'probe'");
    expect(at(rows, 0).value).toBe('kept');
    await again.close();
  }, 180_000);

  it('refuse to open an embedded directory another live process holds', async () => {
    const dataDir = await migratedDataDir();
    const holder = await startApiProcess({ CIVITAS_DATA_DIR: dataDir });
    try {
      await expect(openDatabase({ dataDir })).rejects.toThrow(/is open in process \d+.*DATABASE_URL/s);
    } finally {
      await holder.stop();
    }
  }, 180_000);
});
