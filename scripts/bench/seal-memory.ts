/**
 * Sealing's memory (issue 20: "sealing a day of 100,000 leaves runs in bounded memory").
 *
 *   DATABASE_URL=postgres://… npx node --expose-gc scripts/bench/seal-memory.ts [--leaves 10000,100000]
 *
 * For each size: a scratch database (dropped afterwards) gets one UTC day of that many receipts,
 * appended as the Record appends them (recordReceipts, 2,000 a transaction, so the day's tiles are
 * kept as they arrive). Then, each in a fresh process so one measurement's peak cannot hide in
 * another's, run with the API process's V8 flags (harness.ts): `sealDueDays` (what the
 * `ledger.seal` job runs at midnight), and for comparison the
 * tree a whole-day rebuild holds (`dayLeaves` + `buildTree`, what sealing did before it streamed,
 * and what the fallback for a day logged before tiles still does). Each child reports its
 * resident set before the work and at its peak (VmHWM, the kernel's high-water mark, reset just
 * before the work), and the
 * JavaScript heap's peak sampled every 2 ms. The sealed anchor's root is checked against the
 * root of the day's leaves computed here independently (RFC 9162's recursive definition over
 * node:crypto, not the service's code). A memory that does not grow with the leaves is bounded.
 */
import { fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../api/db/database.ts';
import { loadServiceKeys } from '../../api/keys.ts';
import { loadConfig } from '../../api/config.ts';
import { recordReceipts } from '../../api/ledger/receipts.ts';
import { dayLeaves } from '../../api/ledger/log-days.ts';
import { sealDueDays } from '../../api/ledger/sealing.ts';
import { anchorOf } from '../../api/ledger/anchors.ts';
import { buildTree, toHex } from '../../shared/ledger/index.ts';
import type { AppContext } from '../../api/context.ts';
import { API_PROCESS_ENV, API_PROCESS_FLAGS } from './harness.ts';
import { admin, withDatabase } from './scratch-db.ts';

const DAY = '2026-11-22';
const AFTER = new Date('2026-11-23T00:05:00.000Z');
const BATCH = 2000;

function kb(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
}
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** RFC 9162 section 2.1.1, from the definition: MTH(D[n]) splits at the largest power of two below n. */
function independentRoot(leafHashes: Buffer[]): string {
  const node = (l: Buffer, r: Buffer) =>
    createHash('sha256')
      .update(Buffer.from([1]))
      .update(l)
      .update(r)
      .digest();
  const mth = (from: number, to: number): Buffer => {
    const n = to - from;
    if (n === 1) return leafHashes[from]!; // from < to ≤ length
    let k = 1;
    while (k * 2 < n) k *= 2;
    return node(mth(from, from + k), mth(from + k, to));
  };
  return mth(0, leafHashes.length).toString('hex');
}

type Mode = 'seal' | 'rebuild';

interface ChildReport {
  mode: Mode;
  live: boolean;
  rssBeforeMb: number;
  rssPeakMb: number;
  heapBeforeMb: number;
  heapPeakMb: number;
  ms: number;
  root: string;
}

/**
 * In a fresh process: one sealing (or one rebuild), measured. `live`: the sampler forces a full
 * collection every 20 ms before it reads the heap, so its peak is what the work holds (the live
 * set), not the garbage V8 lets pile up before it collects.
 */
async function child(url: string, mode: Mode, live: boolean): Promise<ChildReport> {
  const db = await openDatabase({ url, migrate: false });
  try {
    const keys = await loadServiceKeys(db);
    const ctx: AppContext = {
      config: { ...loadConfig({}), origin: 'http://bench.test' },
      db,
      clock: { now: () => new Date(AFTER) },
      keys,
    };
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    // Resets the high-water mark to the present resident set (Linux ≥ 4.0), so the peak read after
    // the work is the work's, not the start-up's (module loading peaks above where it settles).
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // an older kernel: the peak may then be the start-up's, an over-estimate of the work's
    }
    const rssBefore = kb('VmRSS');
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(
      () => {
        if (live) gc?.();
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      },
      live ? 20 : 2,
    );
    const started = performance.now();
    let root: string;
    if (mode === 'seal') {
      await sealDueDays(ctx);
      root = (await anchorOf(db, DAY))!.root_hash;
    } else {
      const tree = await buildTree((await dayLeaves(db, DAY)).hashes);
      if (live) gc?.();
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      root = toHex(tree.root);
    }
    const ms = performance.now() - started;
    clearInterval(sampler);
    return {
      mode,
      live,
      rssBeforeMb: Math.round(rssBefore / 102.4) / 10,
      rssPeakMb: Math.round(kb('VmHWM') / 102.4) / 10,
      heapBeforeMb: mb(heapBefore),
      heapPeakMb: mb(heapPeak),
      ms: Math.round(ms),
      root,
    };
  } finally {
    await db.close();
  }
}

function runChild(url: string, mode: Mode, live: boolean): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const worker = fork(fileURLToPath(import.meta.url), ['--child', url, mode, live ? 'live' : 'natural'], {
      // As an API process runs (the job runs in one): harness.ts's flags and environment.
      execArgv: [...process.execArgv.filter((a) => a !== '--expose-gc'), '--expose-gc', ...API_PROCESS_FLAGS],
      env: { ...process.env, ...API_PROCESS_ENV },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    worker.once('message', (report: ChildReport) => resolve(report));
    worker.once('exit', (code) => code && reject(new Error(`${mode} child exited with ${code}`)));
  });
}

/** The scratch day made due again, so each sealing measured seals it afresh. */
async function unseal(url: string): Promise<void> {
  await admin(url, `delete from anchors where date = '${DAY}'`);
  await admin(url, `update log_days set sealed_at = null where date = '${DAY}'`);
}

async function main(): Promise<void> {
  const server = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!server) throw new Error('set DATABASE_URL (a PostgreSQL server: scratch databases are made there)');
  const flag = process.argv.indexOf('--leaves');
  const sizes = ((flag > 0 ? process.argv[flag + 1] : undefined) ?? '10000,100000').split(',').map(Number);
  console.log(
    '| leaves | what | RSS before MB | RSS peak MB | RSS growth MB | heap before MB | heap peak MB | heap growth MB | ms | root |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const size of sizes) {
    const name = `civitas_sealmem_${randomBytes(4).toString('hex')}`;
    await admin(server, `create database ${name}`);
    const url = withDatabase(server, name);
    try {
      const db = await openDatabase({ url });
      let expected: string;
      try {
        for (let start = 0; start < size; start += BATCH) {
          const n = Math.min(BATCH, size - start);
          await db.transaction((tx) =>
            recordReceipts(
              tx,
              Array.from({ length: n }, (_, i) => ({
                step: 'bench.seal',
                subject: `seal:${start + i}`,
                at: new Date(`${DAY}T10:00:00.000Z`),
              })),
            ),
          );
        }
        const leaves = (await dayLeaves(db, DAY)).hashes.map((hash) => Buffer.from(hash, 'hex'));
        if (leaves.length !== size) throw new Error(`the day holds ${leaves.length} leaves, not ${size}`);
        expected = independentRoot(leaves);
      } finally {
        await db.close();
      }
      for (const [mode, live] of [
        ['rebuild', false],
        ['rebuild', true],
        ['seal', false],
        ['seal', true],
      ] as const) {
        if (mode === 'seal') await unseal(url);
        const r = await runChild(url, mode, live);
        const agrees = r.root === expected ? 'equals the independent root' : `**${r.root} ≠ ${expected}**`;
        const what =
          (mode === 'seal' ? 'sealDueDays (streamed)' : 'whole-day tree (dayLeaves + buildTree)') +
          (live ? ', heap read after a forced GC every 20 ms' : '');
        console.log(
          `| ${size} | ${what} | ${r.rssBeforeMb} | ${r.rssPeakMb} | ${(r.rssPeakMb - r.rssBeforeMb).toFixed(1)} | ${r.heapBeforeMb} | ${r.heapPeakMb} | ${(r.heapPeakMb - r.heapBeforeMb).toFixed(1)} | ${r.ms} | ${agrees} |`,
        );
        if (r.root !== expected) process.exitCode = 1;
      }
    } finally {
      await admin(server, `drop database if exists ${name} with (force)`).catch(() => {});
    }
  }
}

if (process.argv[2] === '--child') {
  const [, , , url = '', mode] = process.argv;
  const report = await child(url, mode as Mode, process.argv[5] === 'live');
  process.send?.(report);
  process.disconnect?.();
} else {
  await main();
}
