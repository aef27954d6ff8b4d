/**
 * Issue 10 point 11: the embedded directory lock. Two processes starting together over a stale
 * lock (or over none) never both get it; a pid owned by another user counts as alive; a live pid
 * that is not the holder is named as such, with what to do, and no stack trace.
 */
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, isAlive } from '../../../api/db/data-dir-lock.ts';

const WORKER = fileURLToPath(new URL('../../helpers/lock-worker.ts', import.meta.url));
const SERVER = fileURLToPath(new URL('../../../api/server.ts', import.meta.url));
const DEAD_PID = 4_194_304 + 12_345; // above any pid_max: never a process
const TRIALS = 120;

type Reply = {
  ready?: true;
  won?: boolean;
  pid?: number;
  locked?: boolean;
  message?: string;
  released?: true;
};

function startWorker(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (m: Reply) =>
      m.ready ? resolve(child) : reject(new Error('worker did not start')),
    );
    child.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
  });
}
const next = (child: ChildProcess) => new Promise<Reply>((resolve) => child.once('message', resolve));

let workers: ChildProcess[] = [];
let dir: string;
beforeAll(async () => {
  workers = await Promise.all([startWorker(), startWorker()]);
  dir = mkdtempSync(join(tmpdir(), 'civitas-lock-'));
});
afterAll(() => {
  for (const w of workers) w.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

const lockPath = () => join(dir, 'civitas.lock');

describe('two processes racing for the lock', () => {
  it(`exactly one wins, over a stale lock and over none (${TRIALS} trials)`, async () => {
    const winners: number[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      // Even trials: a stale lock of a gone process (both formats); odd trials: no lock at all.
      if (trial % 2 === 0)
        writeFileSync(
          lockPath(),
          trial % 4 === 0 ? JSON.stringify({ pid: DEAD_PID, nonce: String(trial) }) : String(DEAD_PID),
        );
      const at = Date.now() + 40;
      const replies = Promise.all(workers.map(next));
      for (const w of workers) w.send({ go: { dir, at } });
      const results = await replies;
      const won = results.filter((r) => r.won);
      expect(won, `trial ${trial}: ${JSON.stringify(results)}`).toHaveLength(1);
      const lost = results.find((r) => !r.won)!;
      expect(lost.locked, lost.message).toBe(true);
      expect(lost.message).toContain(`process ${won[0]!.pid}`);
      expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(won[0]!.pid);
      winners.push(won[0]!.pid!);
      const released = Promise.all(workers.map(next));
      for (const w of workers) w.send({ release: true });
      await released;
      expect(existsSync(lockPath())).toBe(false);
    }
    // Both processes won some trials: the race was real, not one always first.
    expect(new Set(winners).size).toBe(2);
    // No temp or claim file is left behind.
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);
});

describe('who holds the lock', () => {
  it('treats a pid owned by another user (EPERM) as alive and only ESRCH as gone', () => {
    const throwing = (code: string) => () => {
      throw Object.assign(new Error(code), { code });
    };
    expect(isAlive(1234, throwing('EPERM'))).toBe(true);
    expect(isAlive(1234, throwing('ESRCH'))).toBe(false);
    expect(isAlive(1234, () => true)).toBe(true);
    expect(isAlive(DEAD_PID)).toBe(false);
    expect(isAlive(process.pid)).toBe(true);
  });

  it('takes over a lock recorded before the last boot, even if its pid runs now', async () => {
    const own = mkdtempSync(join(tmpdir(), 'civitas-lock-boot-'));
    try {
      writeFileSync(
        join(own, 'civitas.lock'),
        JSON.stringify({ pid: 1, boot: 'an-earlier-boot', start: '1' }),
      );
      const release = acquireDataDirLock(own);
      expect(JSON.parse(readFileSync(join(own, 'civitas.lock'), 'utf8')).pid).toBe(process.pid);
      await release();
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('refuses a live pid that is not the holder (reused), says so and what to do, without a stack trace', async () => {
    const own = mkdtempSync(join(tmpdir(), 'civitas-lock-reused-'));
    const sleeper = spawn('sleep', ['60']);
    try {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      writeFileSync(
        join(own, 'civitas.lock'),
        JSON.stringify({ pid: sleeper.pid, boot, start: '1', host: 'old-container' }),
      );
      let caught: unknown;
      try {
        acquireDataDirLock(own);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DataDirLockedError);
      expect((caught as Error).message).toMatch(/is not civitas/);

      // The real server, started on that directory, prints the words and exits 1: no stack trace.
      const server = spawn(process.execPath, [SERVER], {
        env: { ...process.env, DATABASE_URL: '', CIVITAS_DATA_DIR: own, PORT: '0', HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      server.stderr.on('data', (chunk) => (stderr += String(chunk)));
      const code = await new Promise<number | null>((resolve) => server.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(`process ${sleeper.pid}`);
      expect(stderr).toContain('is not civitas');
      expect(stderr).toContain(`delete ${join(own, 'civitas.lock')}`);
      expect(stderr).not.toMatch(/^\s+at /m);
      // Nothing was taken over: the lock still names the recorded holder.
      expect(JSON.parse(readFileSync(join(own, 'civitas.lock'), 'utf8')).pid).toBe(sleeper.pid);
    } finally {
      sleeper.kill();
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});
