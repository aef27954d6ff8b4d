import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { recordReceipt } from '../../../api/ledger/receipts.ts';
import { checkLogConsistency } from '../../../api/ledger/consistency.ts';
import { startJobs } from '../../../api/jobs/runner.ts';
import { at, missing } from '../../helpers/elements.ts';
import { serverUrl } from '../../helpers/db.ts';

interface SealAnswer {
  pid: number;
  ran?: boolean;
  error?: string;
  sealed?: { date: string; root_hash: string; anchor_hash: string }[];
}

const WORKER = fileURLToPath(new URL('./seal-worker.ts', import.meta.url));

function startWorker(url: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, {
      env: { ...process.env, SEAL_DATABASE_URL: url },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (c) => (stderr += String(c)));
    child.once('exit', (code) => reject(new Error(`seal worker exited (${code}): ${stderr.slice(-1500)}`)));
    child.once('message', () => resolve(child));
  });
}

function seal(child: ChildProcess, now: string): Promise<SealAnswer> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as SealAnswer));
    child.send({ seal: now });
  });
}

let t: TestApp;
const workers: ChildProcess[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const w of workers) {
    w.removeAllListeners('exit');
    if (w.connected) w.send({ exit: true });
  }
  await t?.close();
});

describe('sealing with two processes', () => {
  it.skipIf(!serverUrl())('seals each day exactly once, with identical roots, whoever wins', async () => {
    const url = t.database.url as string;
    workers.push(await startWorker(url), await startWorker(url));
    const expected = new Map<string, number>();
    for (let round = 0; round < 6; round++) {
      // a few days of receipts per round
      for (let d = 0; d < 3; d++) {
        const date = new Date(Date.UTC(2026, 11, 1 + round * 3 + d, 10));
        const n = 1 + ((round * 7 + d * 3) % 9);
        await t.database.db.transaction(async (tx) => {
          for (let i = 0; i < n; i++)
            await recordReceipt(tx, {
              step: 'test.race',
              subject: `race:${round}:${d}:${i}`,
              at: new Date(date.getTime() + i),
            });
        });
        expected.set(date.toISOString().slice(0, 10), n);
      }
      const now = new Date(Date.UTC(2026, 11, 1 + round * 3 + 3, 0, 5)).toISOString();
      const answers = await Promise.all(workers.map((w) => seal(w, now)));
      for (const a of answers) expect(a.error, a.error).toBeUndefined();
      const sealedDates = answers.flatMap((a) => a.sealed!.map((s) => s.date));
      // nobody sealed a day twice, and between them every due day of this round was sealed
      expect(new Set(sealedDates).size).toBe(sealedDates.length);
      const rows = await t.database.db.query<{ date: string; tree_size: number }>(
        `select to_char(date, 'YYYY-MM-DD') as date, tree_size from anchors order by date`,
      );
      for (const [date, n] of expected) {
        const found = rows.filter((r) => r.date === date);
        if (date < now.slice(0, 10)) {
          expect(found, date).toHaveLength(1);
          expect(Number(at(found, 0).tree_size)).toBe(n);
        }
      }
      // a repeated run is a no-op in both processes
      const again = await Promise.all(workers.map((w) => seal(w, now)));
      expect(again.flatMap((a) => a.sealed ?? [])).toEqual([]);
    }
    // identical roots: every anchor verifies and the chain holds from genesis
    const check = await checkLogConsistency(t.app.civitas);
    expect(check.problems).toEqual([]);
    expect(check.anchors).toBeGreaterThanOrEqual(18);
  });

  it('the job runner runs the sealing job on demand and stops cleanly', async () => {
    await t.database.db.transaction((tx) =>
      recordReceipt(tx, { step: 'test.job', subject: 'job:1', at: new Date('2027-03-01T10:00:00Z') }),
    );
    t.clock.set('2027-03-02T00:01:00.000Z');
    const jobs = startJobs(t.app, undefined, { initialDelayMs: 60_000 });
    await jobs.runOnce();
    await jobs.stop();
    const [row = missing()] = await t.database.db.query<{ n: string }>(
      `select count(*) as n from anchors where date = '2027-03-01'`,
    );
    expect(Number(row.n)).toBe(1);
  });
});
