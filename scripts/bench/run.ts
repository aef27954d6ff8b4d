/**
 * `npm run bench`: civitas routes measured with autocannon against a bare Fastify "hello" server
 * started in the same run, printed as requests/s and the ratio to that baseline (the machines are
 * shared and noisy: ratios compare, absolute numbers do not).
 */
import { fileURLToPath } from 'node:url';
import { measure, report, startServer, type Measured } from './harness.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const hello = await startServer(here('./hello-server.ts'));
const civitas = await startServer(here('./civitas-server.ts'));
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
}

// Imprint writes/s against real PostgreSQL beside pgbench on the same server (skips without one).
const { runImprintBench } = await import('./imprint.ts');
await runImprintBench();

// Receipts appended/s and inclusion proofs/s, beside the imprint bench.
const { runReceiptBench } = await import('./receipts.ts');
await runReceiptBench();
