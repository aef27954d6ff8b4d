/**
 * `npm run bench`: civitas routes measured with autocannon against a bare Fastify "hello" server
 * started in the same run, printed as requests/s and the ratio to that baseline (the machines are
 * shared and noisy: ratios compare, absolute numbers do not).
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { measure, report, startServer, type Measured } from './harness.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

// With a PostgreSQL server configured, the read benchmark gets a scratch database of its own
// (never the configured database itself); without one, civitas runs on the embedded database.
const server = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
const scratch = `civitas_bench_reads_${randomBytes(4).toString('hex')}`;
async function onServer(sql: string) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}
let databaseUrl = '';
if (server) {
  await onServer(`create database ${scratch}`);
  const url = new URL(server);
  url.pathname = `/${scratch}`;
  databaseUrl = url.toString();
}
console.log(`reads measured on ${server ? 'PostgreSQL (scratch database)' : 'the embedded database'}`);

const hello = await startServer(here('./hello-server.ts'));
const civitas = await startServer(here('./civitas-server.ts'), { DATABASE_URL: databaseUrl });
try {
  const seeded = await fetch(`${civitas.url}/api/agent/imprint`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent: 'bench-agent', body: 'A mind arrives to be measured.' }),
  });
  if (!seeded.ok) throw new Error(`seeding failed: ${seeded.status} ${await seeded.text()}`);

  const baseline = await measure('baseline: bare Fastify GET /', { url: `${hello.url}/` });
  const rows: Measured[] = [];
  rows.push(await measure('GET /api/agent/{handle}', { url: `${civitas.url}/api/agent/bench-agent` }));
  rows.push(await measure('GET /openapi.json', { url: `${civitas.url}/openapi.json` }));
  rows.push(await measure('GET /api/boundaries (23 probes, 5 live)', { url: `${civitas.url}/api/boundaries` }));
  for (const extra of process.argv.slice(2)) rows.push(await measure(`GET ${extra}`, { url: `${civitas.url}${extra}` }));
  report(baseline, rows);
} finally {
  hello.child.kill();
  civitas.child.disconnect();
  if (server) {
    await new Promise((resolve) => civitas.child.once('exit', resolve));
    await onServer(`drop database if exists ${scratch} with (force)`);
  }
}

// Imprint writes/s against real PostgreSQL beside pgbench on the same server (skips without one).
const { runImprintBench } = await import('./imprint.ts');
await runImprintBench();

// Receipts appended/s and inclusion proofs/s, beside the imprint bench.
const { runReceiptBench } = await import('./receipts.ts');
await runReceiptBench();
