/**
 * `npm run bench`: civitas measured against baselines started in the same run, on the same
 * database server (the machines are shared and noisy: ratios compare, absolute numbers do not).
 *
 * Baselines: bare Fastify hello; the database-read floor (bare Fastify + node-postgres answering one
 * indexed row per request with a named prepared statement, on the bench's own database); pgbench
 * TPC-B (-c8 -j2) on the same server. Reads and live pages at 50 connections, each with its ratio
 * (and the server's own CPU per request beside the baseline's: the load generator shares the cores)
 * to the baseline its target names; on PostgreSQL with 1 worker and with CIVITAS_WORKERS (default
 * one per core), and on the embedded database. Then the imprint and receipt benches.
 *
 *   BENCH_SECONDS (default 5) per measurement; BENCH_DATABASES=postgresql,embedded to pick passes;
 *   BENCH_WRITES=0 skips the imprint and receipt benches. Extra paths as arguments are measured too.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  API_PROCESS_ENV,
  API_PROCESS_FLAGS,
  line,
  measure,
  startServer,
  stopServer,
  type Measured,
} from './harness.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const server = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
const passes = (process.env.BENCH_DATABASES ?? (server ? 'postgresql,embedded' : 'embedded'))
  .split(',')
  .map((s) => s.trim());
const siteBuilt = existsSync(here('../../dist/server/entry.mjs'));
const allWorkers = Number(process.env.CIVITAS_WORKERS ?? availableParallelism());

async function onServer(sql: string, url = server) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}
function withDatabase(name: string): string {
  const url = new URL(server!);
  url.pathname = `/${name}`;
  return url.toString();
}

type Target = 'hello' | 'floor' | 'page';
interface Read {
  path: string;
  name?: string;
  target: Target;
  min: number;
  headers?: Record<string, string>;
}
const READS: Read[] = [
  { path: '/api/agent/bench-agent', name: 'GET /api/agent/{handle}', target: 'floor', min: 1.0 },
  { path: '/api/stats', target: 'floor', min: 1.0 },
  { path: '/api/presence', target: 'floor', min: 1.0 },
  { path: '/health', target: 'floor', min: 1.0 },
  { path: '/health/live', target: 'hello', min: 0.8 },
  { path: '/api/boundaries', name: 'GET /api/boundaries (live probes)', target: 'floor', min: 0.5 },
  { path: '/openapi.json', target: 'floor', min: 0.5 },
  // What browsers and most HTTP clients send: the precompressed brotli variant (about a fifth of the bytes).
  {
    path: '/openapi.json',
    name: 'GET /openapi.json (Accept-Encoding: br, gzip)',
    target: 'floor',
    min: 0.5,
    headers: { 'accept-encoding': 'br, gzip' },
  },
  ...process.argv.slice(2).map((path) => ({ path, target: 'floor' as const, min: 0 })),
];
const PAGES: Read[] = [
  { path: '/lexicon', name: 'page /lexicon (prerendered)', target: 'page', min: 0 },
  { path: '/', name: 'page / (live, anonymous)', target: 'page', min: 0.3 },
  { path: '/imprint', name: 'page /imprint (live, anonymous)', target: 'page', min: 0.3 },
];

interface Baselines {
  hello: Measured;
  floor?: Measured;
}

/**
 * Hello and the floor, measured again right before each pass: on a shared machine the load drifts
 * within a run, and a ratio means most against a baseline taken minutes, not a quarter hour, apart.
 */
async function measureBaselines(): Promise<{ baselines: Baselines; lines: string[] }> {
  const hello = await startServer(here('./hello-server.ts'));
  const baselines: Baselines = {
    hello: await measure('baseline: bare Fastify hello', { url: `${hello.url}/` }, hello),
  };
  await stopServer(hello);
  const lines = [line(baselines.hello)];
  if (server) {
    const floor = await startServer(here('./floor-server.ts'), { DATABASE_URL: withDatabase(readsDb) });
    baselines.floor = await measure(
      'baseline: db-read floor (Fastify + pg, named stmt)',
      { url: `${floor.url}/agent/bench-agent` },
      floor,
    );
    await stopServer(floor);
    lines.push(line(baselines.floor));
  }
  return { baselines, lines };
}

async function measurePass(label: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { baselines, lines } = await measureBaselines();
  const civitas = await startServer(
    here('./civitas-server.ts'),
    { ...API_PROCESS_ENV, ...env },
    API_PROCESS_FLAGS,
  );
  const out = [`-- civitas, ${label}`, ...lines];
  try {
    const seeded = await fetch(`${civitas.url}/api/agent/imprint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'bench-agent', body: 'A mind arrives to be measured.' }),
    });
    if (!seeded.ok && seeded.status !== 401)
      throw new Error(`seeding failed: ${seeded.status} ${await seeded.text()}`);
    let page: Measured | undefined;
    const reads = siteBuilt ? [...READS, ...PAGES] : READS;
    for (const read of reads) {
      const m = await measure(
        read.name ?? `GET ${read.path}`,
        { url: `${civitas.url}${read.path}`, headers: read.headers },
        civitas,
      );
      if (read.target === 'page' && !page) {
        page = m;
        out.push(line(m));
        continue;
      }
      const baseline =
        read.target === 'hello'
          ? baselines.hello
          : read.target === 'page'
            ? page
            : (baselines.floor ?? baselines.hello);
      const name =
        read.target === 'page'
          ? 'prerendered page'
          : baseline === baselines.floor
            ? 'db-read floor'
            : 'hello';
      const ratio = baseline ? m.requestsPerSec / baseline.requestsPerSec : 0;
      const goal =
        read.min && baseline && (read.target !== 'floor' || baselines.floor)
          ? `   target ≥${read.min}× ${ratio >= read.min ? 'met' : 'NOT met'}`
          : '';
      out.push(line(m, baseline, name) + goal);
    }
    // A revalidating client: the same read with the ETag it already holds (304, no body).
    const first = await fetch(`${civitas.url}/api/agent/bench-agent`);
    const etag = first.headers.get('etag');
    if (etag) {
      const m = await measure(
        'GET /api/agent/{handle} If-None-Match (304)',
        { url: `${civitas.url}/api/agent/bench-agent`, headers: { 'if-none-match': etag } },
        civitas,
      );
      out.push(line(m, baselines.floor ?? baselines.hello, baselines.floor ? 'db-read floor' : 'hello'));
    }
  } finally {
    await stopServer(civitas);
  }
  return out;
}

const suffix = randomBytes(4).toString('hex');
const readsDb = `civitas_bench_reads_${suffix}`;
const pgbenchDb = `civitas_bench_pgbench_${suffix}`;
const lines: string[] = [];
if (!siteBuilt) console.log('the site is not built (npm run build): live pages are not measured');
try {
  if (server) {
    await onServer(`create database ${readsDb}`);
    await onServer(`create database ${pgbenchDb}`);
  }
  if (server) {
    // The floor reads the bench's own database: migrate and seed it through civitas first.
    const prepare = await startServer(here('./civitas-server.ts'), { DATABASE_URL: withDatabase(readsDb) });
    await fetch(`${prepare.url}/api/agent/imprint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'bench-agent', body: 'A mind arrives to be measured.' }),
    });
    await stopServer(prepare);
    execFileSync('pgbench', ['-i', '-q', withDatabase(pgbenchDb)], { stdio: 'ignore' });
    const output = execFileSync('pgbench', ['-c8', '-j2', `-T${seconds}`, '-n', withDatabase(pgbenchDb)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    lines.push(
      `baseline: pgbench TPC-B (-c8 -j2 -T${seconds}, same server)  ${Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? NaN).toFixed(0)} tps`,
    );
  }
  console.log(lines.join('\n'));
  if (server && passes.includes('postgresql')) {
    console.log(
      (
        await measurePass('PostgreSQL, 1 worker', {
          DATABASE_URL: withDatabase(readsDb),
          CIVITAS_WORKERS: '1',
        })
      ).join('\n'),
    );
    if (allWorkers > 1) {
      console.log(
        (
          await measurePass(`PostgreSQL, ${allWorkers} workers (CIVITAS_WORKERS)`, {
            DATABASE_URL: withDatabase(readsDb),
            CIVITAS_WORKERS: String(allWorkers),
          })
        ).join('\n'),
      );
    }
  }
  if (passes.includes('embedded')) {
    console.log(
      (await measurePass('embedded database (1 worker)', { DATABASE_URL: '', CIVITAS_WORKERS: '1' })).join(
        '\n',
      ),
    );
  }
} finally {
  if (server) {
    await onServer(`drop database if exists ${readsDb} with (force)`).catch(() => {});
    await onServer(`drop database if exists ${pgbenchDb} with (force)`).catch(() => {});
  }
}

if (process.env.BENCH_WRITES !== '0') {
  // Imprint writes/s against real PostgreSQL beside pgbench on the same server (skips without one).
  const { runImprintBench } = await import('./imprint.ts');
  await runImprintBench();
  // Receipts appended/s and inclusion proofs/s, beside the imprint bench.
  const { runReceiptBench } = await import('./receipts.ts');
  await runReceiptBench();
}
// In-process work timed here rather than in tests: Merkle tree build and proofs, the boundary census.
const { runPureBench } = await import('./pure.ts');
await runPureBench();
