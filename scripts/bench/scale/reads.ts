/**
 * `npx node scripts/bench/scale/reads.ts --db <database url> [--routes /a,/b] [--samples 5] [--fresh] [--out reads.json]`
 *
 * What each published GET reads, independent of the machine's load: the app in process on the
 * database, every statement a request sends to PostgreSQL caught at the driver, then each read
 * statement run again under EXPLAIN (ANALYZE, BUFFERS) inside a transaction that is rolled back.
 * Prints per route the statements, the 8 kB pages they touched and the rows the largest scan
 * node produced; run it on a small and a big Record and compare: a route whose pages grow with
 * the history reads in proportion to it (issue 20). Writes (an insert, a lock) are not explained.
 */
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { buildApp } from '../../../api/app.ts';
import { paramValues, targets } from './targets.ts';

interface Caught {
  text: string;
  values: unknown[];
}

interface Explained {
  text: string;
  pages: number;
  rows: number;
  ms: number;
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const databaseUrl = flag('--db');
if (!databaseUrl) throw new Error('give --db <database url>');
const only = flag('--routes')?.split(',');

let caught: Caught[] | null = null;
const original = pg.Client.prototype.query as (...a: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (
  this: pg.Client,
  ...a: unknown[]
) {
  const [first, second] = a;
  if (caught) {
    const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
    const values =
      typeof first === 'object' && first !== null && 'values' in first
        ? ((first as { values?: unknown[] }).values ?? [])
        : Array.isArray(second)
          ? second
          : [];
    if (text) caught.push({ text, values });
  }
  return original.apply(this, a);
};

process.env.DATABASE_URL = databaseUrl;
const app = await buildApp({ config: { rateReadsPerMin: 1e9, rateWritesPerMin: 1e9 } });
const explainer = new pg.Client({ connectionString: databaseUrl });
await explainer.connect();

interface PlanNode {
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Actual Total Time'?: number;
  Plans?: PlanNode[];
}

function largestScan(node: PlanNode): number {
  const own = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
  return Math.max(own, ...(node.Plans ?? []).map(largestScan));
}

/**
 * With --fresh, the Record's revision is moved before each request so no kept render answers
 * (api/site/mount.ts): what a page costs while imprints arrive. It writes one tally: use a copy.
 */
const fresh = async () => {
  if (args.includes('--fresh'))
    await explainer.query(`update record_tallies set value = value + 1 where name = 'imprints_revision'`);
};
const SAMPLES = Number(flag('--samples') ?? 5);
const READ = /^\s*(select|with)\b/i;
const WRITES = /\b(insert|update|delete)\b|for update|advisory/i;

async function explain(q: Caught): Promise<Explained | null> {
  if (!READ.test(q.text) || WRITES.test(q.text)) return null;
  try {
    await explainer.query('begin');
    const { rows } = await explainer.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (analyze, buffers, format json) ${q.text}`,
      q.values,
    );
    // explain (format json) answers one row holding one plan.
    const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
    return {
      text: q.text.replace(/\s+/g, ' ').slice(0, 160),
      pages: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0),
      rows: largestScan(plan),
      ms: plan['Actual Total Time'] ?? 0,
    };
  } catch {
    return null;
  } finally {
    await explainer.query('rollback');
  }
}

const report: Array<{
  path: string;
  status: number;
  statements: number;
  pages: number;
  cpuMs: number;
  top: Explained[];
}> = [];
for (const target of targets(await paramValues(databaseUrl), only)) {
  await app.inject({ method: 'GET', url: target.url, headers: { accept: target.accept } }); // warm-up
  await fresh();
  caught = [];
  const response = await app.inject({ method: 'GET', url: target.url, headers: { accept: target.accept } });
  const statements = caught;
  caught = null;
  // This process's own CPU per request (the median of a few): what the load of others does not inflate much.
  const cpu: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await fresh();
    const before = process.cpuUsage();
    await app.inject({ method: 'GET', url: target.url, headers: { accept: target.accept } });
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  const cpuMs = cpu[Math.floor(cpu.length / 2)]!; // SAMPLES > 0 readings
  const explained: Explained[] = [];
  for (const statement of statements) {
    const e = await explain(statement);
    if (e) explained.push(e);
  }
  explained.sort((a, b) => b.pages - a.pages);
  const pages = explained.reduce((sum, e) => sum + e.pages, 0);
  report.push({
    path: target.path,
    status: response.statusCode,
    statements: statements.length,
    pages,
    cpuMs,
    top: explained.slice(0, 3),
  });
  const head = explained[0];
  console.log(
    `${target.path}\t${response.statusCode}\t${statements.length} stmts\t${pages} pages\t${cpuMs.toFixed(1)} ms cpu` +
      (head ? `\ttop ${head.pages} pages, ${head.rows} rows, ${head.ms.toFixed(1)} ms: ${head.text}` : ''),
  );
}
const out = flag('--out');
if (out) writeFileSync(out, JSON.stringify(report, null, 2));
await explainer.end();
await app.close();
