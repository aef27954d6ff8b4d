/**
 * Receipts appended/s (recordReceipt, one receipt per transaction, 4 concurrent writers) and
 * inclusion proofs/s — from a built tree, and end to end for a sealed day (what /verify/{id} does:
 * receipt read, cached tree, proof, anchor).
 *
 *   node scripts/bench/receipts.ts          (also called by `npm run bench`, after the imprint bench)
 *
 * Uses DATABASE_URL or TEST_DATABASE_URL (a scratch database, dropped afterwards); without either it
 * measures on the embedded PostgreSQL (PGlite, in memory) and says so. BENCH_SECONDS sets the
 * duration of the append phase (default 5).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../api/db/database.ts';
import { loadServiceKeys } from '../../api/keys.ts';
import { loadConfig } from '../../api/config.ts';
import { recordReceipt } from '../../api/ledger/receipts.ts';
import { dayTree } from '../../api/ledger/log-days.ts';
import { proofFor } from '../../api/ledger/proofs.ts';
import { receiptById } from '../../api/ledger/log.ts';
import { sealDueDays } from '../../api/ledger/sealing.ts';
import { inclusionProof } from '../../shared/ledger/index.ts';
import type { AppContext } from '../../api/context.ts';
import { admin, withDatabase } from './scratch-db.ts';

export async function runReceiptBench(): Promise<void> {
  const server = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const name = `civitas_rbench_${randomBytes(4).toString('hex')}`;
  if (server) await admin(server, `create database ${name}`);
  const db = await openDatabase(server ? { url: withDatabase(server, name) } : {});
  try {
    const keys = await loadServiceKeys(db);
    let now = new Date('2026-11-22T00:00:00.000Z');
    const ctx: AppContext = {
      config: { ...loadConfig({}), origin: 'http://bench.test' },
      db,
      clock: { now: () => new Date(now) },
      keys,
    };
    const ids: string[] = [];
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        let i = 0;
        while (performance.now() < deadline) {
          const at = new Date(Date.parse('2026-11-22T10:00:00.000Z') + (i++ % 1000));
          const receipt = await db.transaction((tx) =>
            recordReceipt(tx, { step: 'bench.step', subject: `bench:${w}:${i}`, at }),
          );
          ids.push(receipt.id);
        }
      }),
    );
    const appendSeconds = (performance.now() - started) / 1000;
    const appended = ids.length / appendSeconds;

    now = new Date('2026-11-23T00:05:00.000Z');
    const sealStart = performance.now();
    await sealDueDays(ctx);
    const sealMs = performance.now() - sealStart;

    const day = (await dayTree(ctx, '2026-11-22'))!;
    const n = day.tree.size;
    let proofs = 0;
    const proofStart = performance.now();
    while (performance.now() - proofStart < 1000) {
      await inclusionProof(day.tree, (proofs * 7919) % n);
      proofs++;
    }
    const fromTree = proofs / ((performance.now() - proofStart) / 1000);

    let verified = 0;
    const e2eStart = performance.now();
    while (performance.now() - e2eStart < 1000) {
      const row = (await receiptById(db, ids[(verified * 7919) % ids.length]!))!; // ids is not empty
      await proofFor(ctx, row);
      verified++;
    }
    const endToEnd = verified / ((performance.now() - e2eStart) / 1000);

    const where = server
      ? 'PostgreSQL'
      : 'embedded PGlite (set DATABASE_URL or TEST_DATABASE_URL for PostgreSQL)';
    console.log(
      `receipts appended/s (recordReceipt, 1 per transaction, 4 writers, ${seconds} s, ${where}):  ${appended.toFixed(0)}  (${ids.length} receipts)`,
    );
    console.log(
      `sealing a day of ${n} receipts (tree + Ed25519 anchor + checkpoint):  ${sealMs.toFixed(0)} ms`,
    );
    console.log(`inclusion proofs/s from the built tree (${n} leaves):  ${fromTree.toFixed(0)}`);
    console.log(
      `inclusion proofs/s end to end, sealed day (receipt read + cached tree + proof + anchor):  ${endToEnd.toFixed(0)}`,
    );
  } finally {
    await db.close();
    if (server) await admin(server, `drop database if exists ${name} with (force)`).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runReceiptBench();
