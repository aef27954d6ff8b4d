/**
 * civitas for benchmarking: the real app (with the built site when dist/ exists, and the same
 * request logging as api/server.ts, written to this process's stdout which the bench discards), on
 * DATABASE_URL when set, else an embedded database in a temporary directory; rate limits lifted so
 * the limiter measures, never refuses. CIVITAS_WORKERS > 1 serves through node:cluster, as
 * api/server.ts does.
 */
import cluster from 'node:cluster';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../api/app.ts';
import { serveWorkers } from '../../api/cluster.ts';

const workers = Math.max(1, Number(process.env.CIVITAS_WORKERS ?? 1));
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'civitas-bench-'));

async function serve() {
  const app = await buildApp({
    logger: true,
    config: {
      dataDir,
      rateReadsPerMin: 100_000_000,
      rateWritesPerMin: 100_000_000,
      origin: 'http://127.0.0.1',
    },
  });
  return { app, address: await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' }) };
}

/** scripts/bench/profile.ts: a CPU profile of the serving phase only, started and stopped over IPC. */
const profiler = new Session();
process.on('message', async (message: { profile?: 'start' | 'stop'; file?: string }) => {
  if (message.profile === 'start') {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    process.send?.({ profiling: true });
  } else if (message.profile === 'stop' && message.file) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(message.file, JSON.stringify(profile));
    process.send?.({ profiled: message.file });
  }
});

if (workers > 1 && cluster.isPrimary) {
  // All workers listen on one port (node:cluster shares the primary's socket).
  const { address, stop } = await serveWorkers(workers, { env: { BENCH_DATA_DIR: dataDir } });
  process.send?.({ ready: address });
  process.on('disconnect', async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
} else {
  const { app, address } = await serve();
  process.send?.({ ready: address });
  process.on('disconnect', async () => {
    await app.close();
    if (!cluster.isWorker) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}
