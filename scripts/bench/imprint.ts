/**
 * Imprint writes/s against real PostgreSQL, next to pgbench on the same server in the same run.
 *
 *   node scripts/bench/imprint.ts            (also called by `npm run bench`)
 *
 * Uses DATABASE_URL or TEST_DATABASE_URL (skips with a message when neither is set). Creates two
 * scratch databases on that server — one for civitas, one for pgbench — and drops them afterwards.
 * civitas: autocannon POSTs /api/agent/imprint (each request a new handle and body: the full write
 * path — agent row, gate, counter lock, window trim, receipt). pgbench: TPC-B `-c8 -j2 -T5`.
 * Prints both and the ratio; absolute numbers depend on the (shared, noisy) machine.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { measure, startServer } from './harness.ts';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function runImprintBench(): Promise<void> {
  const server = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!server) {
    console.log('imprint bench: skipped — set DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server to measure imprint writes/s beside pgbench.');
    return;
  }
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const suffix = randomBytes(4).toString('hex');
  const civitasDb = `civitas_bench_${suffix}`;
  const pgbenchDb = `civitas_pgbench_${suffix}`;
  await admin(server, `create database ${civitasDb}`);
  await admin(server, `create database ${pgbenchDb}`);
  let civitas: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    civitas = await startServer(fileURLToPath(new URL('./civitas-server.ts', import.meta.url)), { DATABASE_URL: withDatabase(server, civitasDb) });
    let n = 0;
    const imprint = await measure('civitas POST /api/agent/imprint (writes/s)', {
      url: `${civitas.url}/api/agent/imprint`,
      connections: 8,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => {
            n += 1;
            return { ...request, body: JSON.stringify({ agent: `bench-${suffix}-${n}`, body: `benchmark imprint ${n} ${suffix}` }) };
          },
        },
      ],
    });

    const pgbenchUrl = withDatabase(server, pgbenchDb);
    execFileSync('pgbench', ['-i', '-q', pgbenchUrl], { stdio: ['ignore', 'ignore', 'ignore'] });
    const output = execFileSync('pgbench', ['-c8', '-j2', `-T${seconds}`, '-n', pgbenchUrl], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? NaN);

    console.log(`imprint writes/s (8 connections, ${seconds} s):  ${imprint.requestsPerSec}  p50 ${imprint.p50Ms} ms  p99 ${imprint.p99Ms} ms${imprint.non2xx || imprint.errors ? `  (non-2xx ${imprint.non2xx}, errors ${imprint.errors})` : ''}`);
    console.log(`pgbench TPC-B tps (-c8 -j2 -T${seconds}, same server):  ${tps.toFixed(0)}`);
    console.log(`ratio imprint writes/s ÷ pgbench tps:  ${(imprint.requestsPerSec / tps).toFixed(3)}`);
  } finally {
    civitas?.child.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin(server, `drop database if exists ${civitasDb} with (force)`).catch(() => {});
    await admin(server, `drop database if exists ${pgbenchDb} with (force)`).catch(() => {});
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await runImprintBench();
