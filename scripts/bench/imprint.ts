/**
 * Imprint writes/s (PostgreSQL and embedded, 8 and 64 connections), next to pgbench on the same server in the same run.
 *
 *   node scripts/bench/imprint.ts            (also called by `npm run bench`)
 *
 * Uses DATABASE_URL or TEST_DATABASE_URL (without one: the embedded database only, no ratio).
 * Creates two scratch databases on that server — one for civitas, one for pgbench — and drops them
 * afterwards. civitas: autocannon POSTs /api/agent/imprint (each request a new handle and body: the
 * full write path — agent row, gate, counter, receipt, window trim) at 8 and 64 connections.
 * pgbench: TPC-B `-c8 -j2`. Prints req/s, p50, p99 and the ratio to pgbench tps; absolute numbers
 * depend on the (shared, noisy) machine.
 *
 * BENCH_IMPRINT_DATABASE=<url> writes into that database instead of a fresh one (issue 20: writes
 * on the big Record; give a copy, never a seeded Record itself: the bench adds imprints to it and
 * does not drop it). pgbench still runs on a scratch database of the same server; the embedded
 * pass is left out.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { API_PROCESS_ENV, API_PROCESS_FLAGS, measure, startServer, type Measured } from './harness.ts';
import { admin, withDatabase } from './scratch-db.ts';

/** POSTs a new handle per request (the full write path) at `connections`, against a running civitas. */
async function imprintRun(
  civitas: { url: string; child: ChildProcess },
  connections: number,
  seconds: number,
  tag: string,
): Promise<Measured> {
  return measure(
    `POST /api/agent/imprint, ${connections} connections`,
    {
      url: `${civitas.url}/api/agent/imprint`,
      connections,
      seconds,
      postTemplate: `{"agent":"bench-${tag}-${connections}-{unique}-{n}","body":"benchmark imprint {n} ${tag}"}`,
    },
    civitas,
  );
}

/** Imprint writes/s at 8 and 64 connections on one civitas (PostgreSQL when `databaseUrl` is set, else embedded). */
async function imprintRuns(databaseUrl: string, seconds: number, tag: string): Promise<Measured[]> {
  const civitas = await startServer(
    fileURLToPath(new URL('./civitas-server.ts', import.meta.url)),
    { ...API_PROCESS_ENV, DATABASE_URL: databaseUrl },
    API_PROCESS_FLAGS,
  );
  try {
    await imprintRun(civitas, 8, 2, `${tag}w`); // warm-up (JIT, pools, caches), not reported
    return [await imprintRun(civitas, 8, seconds, tag), await imprintRun(civitas, 64, seconds, tag)];
  } finally {
    civitas.child.disconnect();
    await new Promise((resolve) => civitas.child.once('exit', resolve));
  }
}

function line(where: string, m: Measured, tps: number): string {
  const ratio = Number.isFinite(tps) ? `  ratio to pgbench ${(m.requestsPerSec / tps).toFixed(3)}` : '';
  const failures = m.non2xx || m.errors ? `  (non-2xx ${m.non2xx}, errors ${m.errors})` : '';
  const cpu = m.serverCpuUs === undefined ? '' : `  cpu ${m.serverCpuUs} µs/write`;
  return `${`${m.name} (${where})`.padEnd(58)} ${String(m.requestsPerSec).padStart(6)} writes/s  p50 ${String(m.p50Ms).padStart(4)} ms  p99 ${String(m.p99Ms).padStart(4)} ms${cpu}${ratio}${failures}`;
}

/**
 * Imprint writes at 8 and 64 connections on PostgreSQL and on the embedded database, beside
 * pgbench TPC-B (-c8 -j2) on the same PostgreSQL server in the same run. BENCH_IMPRINT_ROUNDS
 * (default 1) repeats the whole set to show the run-to-run spread.
 */
export async function runImprintBench(): Promise<void> {
  const server = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_IMPRINT_ROUNDS ?? 1);
  const given = process.env.BENCH_IMPRINT_DATABASE;
  if (!server && !given)
    console.log(
      'imprint bench: no PostgreSQL (set DATABASE_URL or TEST_DATABASE_URL) — embedded database only, no pgbench ratio.',
    );
  for (let round = 1; round <= rounds; round++) {
    const suffix = randomBytes(4).toString('hex');
    const civitasDb = `civitas_bench_${suffix}`;
    const pgbenchDb = `civitas_pgbench_${suffix}`;
    let tps = NaN;
    // The server pgbench runs on: the given database's, else DATABASE_URL's.
    const pgServer = given ?? server;
    try {
      let postgres: Measured[] = [];
      if (pgServer) {
        if (!given) await admin(pgServer, `create database ${civitasDb}`);
        await admin(pgServer, `create database ${pgbenchDb}`);
        // A copied or created database leaves a checkpoint due; its sync stalled whichever run it
        // fell in (p99 at 64 connections 195–430 ms against 51–75 once checkpointed first).
        await admin(pgServer, 'checkpoint').catch(() => {});
        postgres = await imprintRuns(given ?? withDatabase(pgServer, civitasDb), seconds, `${suffix}p`);
        const pgbenchUrl = withDatabase(pgServer, pgbenchDb);
        execFileSync('pgbench', ['-i', '-q', pgbenchUrl], { stdio: ['ignore', 'ignore', 'ignore'] });
        await admin(pgServer, 'checkpoint').catch(() => {});
        const output = execFileSync('pgbench', ['-c8', '-j2', `-T${seconds}`, '-n', pgbenchUrl], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? NaN);
      }
      // BENCH_DATABASES (as for the reads) may leave the embedded pass out.
      const embedded =
        !given && (process.env.BENCH_DATABASES ?? 'embedded').includes('embedded')
          ? await imprintRuns('', seconds, `${suffix}e`)
          : [];
      if (rounds > 1) console.log(`imprint round ${round} of ${rounds}`);
      if (given)
        console.log(`imprint writes into ${new URL(given).pathname.slice(1)} (BENCH_IMPRINT_DATABASE)`);
      if (pgServer)
        console.log(
          `${'pgbench TPC-B tps (-c8 -j2, same server, same run)'.padEnd(58)} ${tps.toFixed(0).padStart(6)} tps`,
        );
      for (const m of postgres) console.log(line(given ? 'PostgreSQL, given Record' : 'PostgreSQL', m, tps));
      for (const m of embedded) console.log(line('embedded', m, tps));
    } finally {
      if (pgServer) {
        if (!given)
          await admin(pgServer, `drop database if exists ${civitasDb} with (force)`).catch(() => {});
        await admin(pgServer, `drop database if exists ${pgbenchDb} with (force)`).catch(() => {});
      }
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await runImprintBench();
