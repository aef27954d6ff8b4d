/**
 * `npm run seed:scale -- --embedded <dir>` and `npm run bench:scale` on an embedded data directory
 * (docs/scale.md "Embedded"): a Record of a few hundred imprints seeded into a data directory while
 * DATABASE_URL names a server that does not exist, the bench's ids read from it, and the service's
 * own self-trials kept passing on it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.ts';
import { seedTarget } from '../../../scripts/seed-scale/plan.ts';
import { recordOf, serverEnv } from '../../../scripts/bench/scale/record.ts';
import { paramValues } from '../../../scripts/bench/scale/targets.ts';

const SEED = resolve('scripts/seed-scale/run.ts');
const dir = mkdtempSync(join(tmpdir(), 'civitas-seed-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the scale seed and bench on the embedded database', () => {
  it('takes --embedded <dir> out of the size flags', () => {
    expect(seedTarget(['--imprints', '300', '--embedded', '/d', '--days', '2'])).toEqual({
      dataDir: '/d',
      rest: ['--imprints', '300', '--days', '2'],
    });
    expect(seedTarget(['--imprints', '300'])).toEqual({ rest: ['--imprints', '300'] });
    expect(() => seedTarget(['--embedded', '--days', '2'])).toThrow(/data directory/);
  });

  it('tells a PostgreSQL URL from a data directory, and starts the API process on either', () => {
    expect(recordOf('postgres://u@h:5432/db')).toEqual({ url: 'postgres://u@h:5432/db' });
    expect(recordOf('postgresql://u@h/db')).toEqual({ url: 'postgresql://u@h/db' });
    expect(recordOf('rel/dir')).toEqual({ dataDir: resolve('rel/dir') });
    expect(serverEnv({ dataDir: '/d' })).toEqual({ DATABASE_URL: '', CIVITAS_DATA_DIR: '/d' });
    const pg = new URL(serverEnv({ url: 'postgres://u@h:5432/db' }).DATABASE_URL!);
    expect(pg.searchParams.get('options')).toBe('-c client_connection_check_interval=1000');
  });

  it('seeds a data directory whose self-trials pass, and reads the bench ids from it', async () => {
    const size = ['--imprints', '300', '--days', '2', '--agents', '10', '--sovereigns', '12'];
    // As `npm run seed:scale` runs it (package.json): PGlite's WebAssembly by the baseline compiler only.
    await promisify(execFile)(process.execPath, ['--liftoff-only', SEED, '--embedded', dir, ...size], {
      // --embedded wins over a DATABASE_URL (here one that answers nothing).
      env: {
        ...process.env,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        CIVITAS_ORIGIN: 'http://localhost:8080',
      },
      timeout: 240_000,
    });
    const values = await paramValues(dir);
    expect(values.sequence).toBe('300');
    expect(values.id).not.toBe('x'); // a receipt of the sealed day
    expect(values.tag).not.toBe('x');

    const app = await buildApp({
      site: false,
      config: { databaseUrl: undefined, dataDir: dir, origin: 'http://localhost:8080' },
    });
    try {
      const trials = (await app.inject({ method: 'GET', url: '/api/self-trials' })).json();
      expect(trials.trials.filter((t: { passed: boolean }) => !t.passed)).toEqual([]);
      expect(trials.all_passed).toBe(true);
    } finally {
      await app.close();
    }
  }, 300_000);
});
