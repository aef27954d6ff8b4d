/**
 * `npx node scripts/bench/scale/writes.ts --db <database url> [--writes 400] [--connections 8] [--out writes.json]`
 *
 * What the imprint write costs PostgreSQL, independent of the machine's load: the app in process on
 * the database (a copy: it writes), `--writes` POSTs of /api/agent/imprint, `--connections` at a
 * time (each a new handle, as the imprint bench sends), with every statement the writes run
 * explained by auto_explain as it runs (ANALYZE, BUFFERS, trigger times, the statements inside
 * trigger functions too), its output read back as notices on the same connections. Prints, per
 * statement shape, its calls per write, time and pages (8 kB buffers touched) per call, and each
 * trigger's time per write. Run it on a small and a big Record: a statement whose pages grow with
 * the Record makes writes slower as the service lives.
 */
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { buildApp } from '../../../api/app.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const databaseUrl = flag('--db');
if (!databaseUrl) throw new Error('give --db <database url> (a copy: this writes imprints)');
const WRITES = Number(flag('--writes') ?? 400);
const CONNECTIONS = Number(flag('--connections') ?? 8);

interface PlanNode {
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Shared Dirtied Blocks'?: number;
  'Shared Written Blocks'?: number;
  Plans?: PlanNode[];
}
interface Explained {
  'Query Text': string;
  Plan: PlanNode;
  Triggers?: Array<{ 'Trigger Name': string; Relation?: string; Time: number; Calls: number }>;
}

let capturing = false;
const notices: string[] = [];
const hooked = new WeakSet<object>();
/** auto_explain on every connection of the app's pool (the pool drops a URL's `options`). */
const SETUP = [
  `load 'auto_explain'`,
  'set auto_explain.log_min_duration = 0',
  'set auto_explain.log_analyze = on',
  'set auto_explain.log_buffers = on',
  'set auto_explain.log_triggers = on',
  'set auto_explain.log_nested_statements = on',
  `set auto_explain.log_format = 'json'`,
  'set client_min_messages = log',
].join('; ');
const original = pg.Client.prototype.query as (...a: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (
  this: pg.Client,
  ...a: unknown[]
) {
  if (!hooked.has(this)) {
    hooked.add(this);
    this.on('notice', (notice) => {
      if (capturing && notice.message) notices.push(notice.message);
    });
    // Queued ahead of the first query on this connection (pg runs a client's queries in order).
    void (original.call(this, SETUP) as Promise<unknown>).catch(() => {});
  }
  return original.apply(this, a);
};

process.env.DATABASE_URL = databaseUrl;
const app = await buildApp({ config: { rateReadsPerMin: 1e9, rateWritesPerMin: 1e9 } });
const tag = Date.now().toString(36);

async function write(n: number): Promise<number> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    headers: { 'content-type': 'application/json' },
    payload: { agent: `writes-${tag}-${n}`, body: `benchmark imprint ${n} ${tag}` },
  });
  return response.statusCode;
}

async function run(count: number, offset: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < count) {
        const status = await write(offset + next++);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

await run(Math.min(100, WRITES), 0); // warm-up: code paths compiled, pool open, caches warm
capturing = true;
const cpuBefore = process.cpuUsage();
const statuses = await run(WRITES, 1_000_000);
const cpu = process.cpuUsage(cpuBefore);
capturing = false;

const pages = (node: PlanNode) => (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
const shapes = new Map<string, { calls: number; ms: number; pages: number; dirtied: number }>();
const triggers = new Map<string, { calls: number; ms: number }>();
for (const message of notices) {
  const match = /^duration: ([\d.]+) ms\s+plan:\s*([\s\S]*)$/.exec(message);
  const [, duration = '0', plan] = match ?? [];
  if (plan === undefined) continue;
  let explained: Explained;
  try {
    explained = JSON.parse(plan) as Explained;
  } catch {
    continue;
  }
  const shape = explained['Query Text'].replace(/\s+/g, ' ').trim().slice(0, 140);
  const entry = shapes.get(shape) ?? { calls: 0, ms: 0, pages: 0, dirtied: 0 };
  entry.calls++;
  entry.ms += Number(duration);
  entry.pages += pages(explained.Plan);
  entry.dirtied += explained.Plan['Shared Dirtied Blocks'] ?? 0;
  shapes.set(shape, entry);
  for (const trigger of explained.Triggers ?? []) {
    const name = `${trigger['Trigger Name']} on ${trigger.Relation ?? '?'}`;
    const t = triggers.get(name) ?? { calls: 0, ms: 0 };
    t.calls += trigger.Calls;
    t.ms += trigger.Time;
    triggers.set(name, t);
  }
}

const per = (x: number) => (x / WRITES).toFixed(3);
console.log(
  `${WRITES} writes at ${CONNECTIONS} at a time; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ` +
    `this process's CPU ${((cpu.user + cpu.system) / 1000 / WRITES).toFixed(2)} ms/write; ${notices.length} statements explained`,
);
console.log('\n| statement | calls/write | ms/call | pages/call | dirtied/call | ms/write |');
console.log('|---|---|---|---|---|---|');
const rows = [...shapes.entries()].sort((a, b) => b[1].ms - a[1].ms);
for (const [shape, s] of rows.slice(0, 30)) {
  console.log(
    `| \`${shape.replaceAll('|', '\\|')}\` | ${per(s.calls)} | ${(s.ms / s.calls).toFixed(3)} | ${(s.pages / s.calls).toFixed(1)} | ${(s.dirtied / s.calls).toFixed(1)} | ${per(s.ms)} |`,
  );
}
console.log('\n| trigger | calls/write | ms/write |');
console.log('|---|---|---|');
for (const [name, t] of [...triggers.entries()].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(`| ${name} | ${per(t.calls)} | ${per(t.ms)} |`);
}
const out = flag('--out');
if (out)
  writeFileSync(
    out,
    JSON.stringify(
      {
        writes: WRITES,
        connections: CONNECTIONS,
        statements: Object.fromEntries(rows),
        triggers: Object.fromEntries(triggers),
      },
      null,
      1,
    ),
  );
await app.close();
