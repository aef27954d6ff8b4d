/**
 * CIVITAS_WORKERS: api/server.ts on PostgreSQL runs that many workers behind one port, each a whole
 * civitas with the API process's settings (api/process-settings.ts), and the once-jobs (sealing)
 * happen once although every worker runs the job timers.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerCount } from '../../../api/cluster.ts';
import { recordReceipt } from '../../../api/ledger/receipts.ts';
import { API_NODE_FLAGS, API_PROCESS_ENV } from '../../../api/process-settings.ts';
import { createTestDatabase, serverUrl, type TestDatabase } from '../../helpers/db.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/wait.ts';
import { missing } from '../../helpers/elements.ts';

const SERVER = fileURLToPath(new URL('../../../api/server.ts', import.meta.url));

describe('workerCount', () => {
  it('is one on the embedded database, CIVITAS_WORKERS when set, else one per core', () => {
    expect(workerCount(true, { CIVITAS_WORKERS: '4' })).toBe(1);
    expect(workerCount(false, { CIVITAS_WORKERS: '3' })).toBe(3);
    expect(workerCount(false, {})).toBe(availableParallelism());
    expect(workerCount(false, { CIVITAS_WORKERS: 'many' })).toBe(availableParallelism());
  });
});

describe.skipIf(!serverUrl())('two workers on PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  const yesterday = new Date(Date.now() - 86_400_000);
  const day = yesterday.toISOString().slice(0, 10);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'civitas-cluster-'));
    // A receipt of yesterday: the sealing job has a day to seal as soon as the workers start.
    await database.db.transaction((tx) =>
      recordReceipt(tx, { step: 'test.cluster', subject: 'cluster:1', at: yesterday }),
    );
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves on one port from two processes, seals a due day once, and stops on SIGTERM', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [SERVER], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        CIVITAS_WORKERS: '2',
        PORT: String(port),
        HOST: '127.0.0.1',
        CIVITAS_DATA_DIR: dataDir,
        CIVITAS_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    server.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    try {
      await until('the workers to listen', async () =>
        (await fetch(`http://127.0.0.1:${port}/health/live`)).ok ? true : undefined,
      );
      const workers = execFileSync('ps', ['--ppid', String(server.pid), '-o', 'pid='], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.trim());
      expect(workers).toHaveLength(2);
      // The primary was started without the API process's settings; each worker has them.
      for (const pid of workers.map((line) => line.trim())) {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        expect(args).toEqual(expect.arrayContaining([...API_NODE_FLAGS]));
        const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        expect(environment).toEqual(
          expect.arrayContaining(Object.entries(API_PROCESS_ENV).map(([name, value]) => `${name}=${value}`)),
        );
      }

      const answers = await Promise.all(
        Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${port}/api/stats`)),
      );
      expect(answers.every((res) => res.status === 200)).toBe(true);

      await until('the due day to be sealed', async () => {
        const [row = missing()] = await database.db.query<{ n: string | number }>(
          'select count(*) as n from anchors where date = $1',
          [day],
        );
        return Number(row.n) > 0 ? true : undefined;
      });
      // Both workers ran the sealing job: each records its try in job_runs, a try that found the
      // other holding the lock too. Its interval is a minute, so two tries are the two first ticks.
      await until('both workers to try the sealing job', async () => {
        const [run] = await database.db.query<{ tries: string | number }>(
          `select tries from job_runs where job = 'ledger.seal'`,
        );
        return run && Number(run.tries) >= 2 ? true : undefined;
      });
      const [anchors = missing()] = await database.db.query<{ n: string | number }>(
        'select count(*) as n from anchors where date = $1',
        [day],
      );
      expect(Number(anchors.n)).toBe(1);
    } finally {
      server.kill('SIGTERM');
      const code = await exited;
      expect(code, stderr.slice(-2000)).toBe(0);
    }
  }, 120_000);
});
