/**
 * `npm run bench:scale -- --small <database url | data dir> --big <database url | data dir> [--routes /api/stats,/api/citizens]
 *   [--samples 30] [--route-ms 5000] [--load-seconds 3] [--no-load] [--out results.json]
 *   [--small-from earlier.json] [--default-heap]`  (the small Record's timings from an earlier run's
 *   --out; the API process without harness.ts's API_PROCESS_FLAGS and API_PROCESS_ENV)
 *
 * Measures every published GET (path parameters filled with real ids of each database) on one API
 * process per Record, each route on the small Record and then at once on the big one (both
 * processes up side by side): p50 and p99 at one connection, req/s at 50 connections for the hot
 * reads, and prints one table with each route's big/small ratio and the routes over issue 20's
 * targets (p50 > 50 ms, p99 > 200 ms, or p50 over 3× the small Record's and 5 ms above it; a route
 * over is timed again on both Records, and counts only if it is over again). Seed the Records with
 * `npm run seed:scale` (docs/scale.md) under the same CIVITAS_ORIGIN as this bench runs with. After
 * each route it reads the API process's resident memory (VmRSS, and VmHWM: its peak so far) from
 * /proc, and prints each Record's peak RSS and the route that reached it (issue 20: under 400 MB
 * throughout). A Record is a PostgreSQL URL or an embedded data directory (anything else: its API
 * process then runs on PGlite in that directory, as `npm start` does without DATABASE_URL;
 * record.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_PROCESS_ENV, API_PROCESS_FLAGS, startServer, stopServer } from '../harness.ts';
import { loadRoute, timeRoute, type Budget, type Timing } from './measure.ts';
import { HOT_READS, paramValues, targets, type Target } from './targets.ts';
import { recordOf, serverEnv } from './record.ts';

interface Options extends Budget {
  small?: string;
  /** --default-heap: the API process without API_PROCESS_FLAGS and API_PROCESS_ENV (V8's and glibc's own sizing) */
  defaultHeap?: boolean;
  /** the small Record's timings from an earlier run's --out (its `small`), instead of measuring it again */
  smallFrom?: string;
  big?: string;
  routes?: string[];
  load: boolean;
  out?: string;
}

function parse(argv: readonly string[]): Options {
  const options: Options = { samples: 30, ms: 5000, loadSeconds: 3, load: true };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--no-load') {
      options.load = false;
      continue;
    }
    if (flag === '--default-heap') {
      options.defaultHeap = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--small') options.small = value;
    else if (flag === '--big') options.big = value;
    else if (flag === '--small-from') options.smallFrom = value;
    else if (flag === '--routes') options.routes = value.split(',').map((s) => s.trim());
    else if (flag === '--samples') options.samples = Number(value);
    else if (flag === '--route-ms') options.ms = Number(value);
    else if (flag === '--load-seconds') options.loadSeconds = Number(value);
    else if (flag === '--out') options.out = value;
    else throw new Error(`unknown flag ${flag} (see the header of scripts/bench/scale/run.ts)`);
  }
  if (!options.small && !options.big && !options.smallFrom)
    throw new Error('give --small and/or --big (database URLs or embedded data directories)');
  return options;
}

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

/** The process's resident set now and at its peak (VmRSS, VmHWM), in MB; undefined off Linux. */
function residentMb(pid: number | undefined): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const [rss, peak] = [kb('VmRSS'), kb('VmHWM')];
    return Number.isFinite(rss) && Number.isFinite(peak)
      ? { rss: Math.round(rss / 1024), peak: Math.round(peak / 1024) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A Record's highest VmHWM over every API process the bench started on it, and where it was read. */
interface PeakRss {
  mb: number;
  /** the route after which the peak was first read ('start' when the server had it on starting) */
  at: string;
}

/** One Record's API process and what was measured on it; restarted after a cut-off. */
interface RecordRun {
  name: string;
  list: Target[];
  results: Map<string, Timing>;
  peak?: PeakRss;
  /** times one route (and loads it when it is a hot read), reading the process's memory after */
  time(target: Target): Promise<Timing>;
  /** times one route again, one connection only, keeping the pass's result */
  again(target: Target): Promise<Timing>;
  stop(): Promise<void>;
}

async function openRecord(name: string, where: string, options: Options): Promise<RecordRun> {
  const values = await paramValues(where);
  const record = recordOf(where);
  // A request cut off at the budget keeps running on the server (and its query in PostgreSQL), and
  // would slow every route after it: the server is restarted after a cut-off, and its database
  // sessions check every second whether their client is still there, so the orphaned queries end.
  const start = () =>
    startServer(
      SERVER,
      {
        ...(options.defaultHeap ? {} : API_PROCESS_ENV),
        ...serverEnv(record),
        CIVITAS_WORKERS: '1',
      },
      options.defaultHeap ? [] : API_PROCESS_FLAGS,
    );
  let server = await start();
  /** Times one route at one connection; a cut-off request restarts the process, after `read` saw it. */
  const timeOnce = async (target: Target, read?: (timing: Timing) => void) => {
    const timing = await timeRoute(server.url, target, options);
    read?.(timing);
    if (timing.cutOff) {
      server.child.kill('SIGKILL');
      server = await start();
    }
    return timing;
  };
  const run: RecordRun = {
    name,
    list: targets(values, options.routes),
    results: new Map(),
    async time(target) {
      // Read before a restart: the cut-off request's memory is the process's, not the next one's.
      const timing = await timeOnce(target, (t) => readMemory(target.path, t));
      if (options.load && HOT_READS.includes(target.path)) {
        timing.rps = await loadRoute(server.url, target, options.loadSeconds);
        readMemory(`${target.path} (50 connections)`, timing);
      }
      run.results.set(target.path, timing);
      const rss = timing.rssMb === undefined ? '' : `, RSS ${timing.rssMb} MB (peak ${timing.peakRssMb})`;
      process.stderr.write(`${name} ${target.path} ${timing.status} p50 ${timing.p50.toFixed(1)} ms${rss}\n`);
      return timing;
    },
    again: (target) => timeOnce(target),
    stop: () => stopServer(server),
  };
  const readMemory = (at: string, timing?: Timing) => {
    const memory = residentMb(server.child.pid);
    if (!memory) return;
    if (timing) Object.assign(timing, { rssMb: memory.rss, peakRssMb: memory.peak });
    if (!run.peak || memory.peak > run.peak.mb) run.peak = { mb: memory.peak, at };
  };
  readMemory('start');
  return run;
}

/**
 * Every route on each Record given. With both, each route is timed on the small Record and then at
 * once on the big one, both API processes up side by side: on a shared machine the load changes
 * from minute to minute, and a route compared with a measurement taken minutes earlier (the whole
 * small Record before the big one) shows that change as growth with the Record.
 */
async function benchRecords(options: Options): Promise<{ runs: RecordRun[]; retimed: Map<string, Retimed> }> {
  const runs: RecordRun[] = [];
  try {
    if (options.small) runs.push(await openRecord('small', options.small, options));
    if (options.big) runs.push(await openRecord('big', options.big, options));
    const paths = [...new Set(runs.flatMap((run) => run.list.map((target) => target.path)))];
    for (const path of paths)
      for (const run of runs) {
        const target = run.list.find((t) => t.path === path);
        if (target) await run.time(target);
      }
    return { runs, retimed: runs.length === 2 ? await retime(runs[0]!, runs[1]!) : new Map() };
  } finally {
    await Promise.all(runs.map((run) => run.stop()));
  }
}

/** A route over the targets in the pass, timed again on both Records back to back. */
interface Retimed {
  small: Timing;
  big: Timing;
}

/**
 * The routes over the targets in the pass, each timed again on the small Record and at once on the
 * big one. With few samples a route's p99 is its slowest request, and one request that waited out
 * another process's burst on a shared machine marks the route over; a route whose cost grows with
 * the Record is over again. It counts as over only when it is over both times (the table shows both).
 */
async function retime(small: RecordRun, big: RecordRun): Promise<Map<string, Retimed>> {
  const retimed = new Map<string, Retimed>();
  for (const [path, b] of big.results) {
    if (!over(b, small.results.get(path))) continue;
    const [s, t] = [small.list.find((x) => x.path === path), big.list.find((x) => x.path === path)];
    if (!s || !t) continue;
    const again = { small: await small.again(s), big: await big.again(t) };
    process.stderr.write(
      `again ${path}: small p50 ${again.small.p50.toFixed(1)}, big p50 ${again.big.p50.toFixed(1)} ms\n`,
    );
    retimed.set(path, again);
  }
  return retimed;
}

/** Over in the pass and, when it was timed again, again. */
const confirmed = (b: Timing, s: Timing | undefined, again: Retimed | undefined) =>
  over(b, s) && (!again || over(again.big, again.small));

const ms = (t: Timing | undefined, key: 'p50' | 'p99') =>
  t ? `${t.cutOff && key === 'p99' ? '>' : ''}${t[key] < 10 ? t[key].toFixed(1) : Math.round(t[key])}` : '—';

/** Over issue 20's targets on the big Record. */
export function over(big: Timing, small: Timing | undefined): boolean {
  if (big.p50 > 50 || big.p99 > 200 || big.cutOff) return true;
  return small !== undefined && big.p50 > Math.max(3 * small.p50, small.p50 + 5);
}

function table(small: Map<string, Timing>, big: Map<string, Timing>, retimed: Map<string, Retimed>): string {
  const paths = [...new Set([...small.keys(), ...big.keys()])];
  const rows = paths.map((path) => {
    const s = small.get(path);
    const b = big.get(path);
    const ratio = s && b ? `${(b.p50 / s.p50).toFixed(1)}×` : '—';
    const again = retimed.get(path);
    const flag = !b || !over(b, s) ? '' : confirmed(b, s, again) ? ' **over**' : '';
    const note = again
      ? ` (again: ${ms(again.small, 'p50')}/${ms(again.small, 'p99')} → ${ms(again.big, 'p50')}/${ms(again.big, 'p99')}${flag ? '' : ', over in the pass only'})`
      : '';
    const rps = (t?: Timing) => (t?.rps === undefined ? '' : String(t.rps));
    const status = b?.status ?? s?.status ?? 0;
    const rss = b?.rssMb === undefined ? '' : String(b.rssMb);
    return `| \`${path}\` | ${status} | ${ms(s, 'p50')} | ${ms(s, 'p99')} | ${ms(b, 'p50')} | ${ms(b, 'p99')} | ${ratio}${flag}${note} | ${rps(s)} | ${rps(b)} | ${rss} |`;
  });
  return [
    '| GET | status | small p50 ms | small p99 ms | big p50 ms | big p99 ms | big/small p50 | small req/s (50 conn) | big req/s (50 conn) | big RSS MB after |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The small Record's side of an earlier run's --out file. */
function earlier(file: string): { results: Map<string, Timing>; peak?: PeakRss } {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { small: Timing[]; peakRss?: { small?: PeakRss } };
  return { results: new Map(saved.small.map((t) => [t.path, t])), peak: saved.peakRss?.small };
}

const options = parse(process.argv.slice(2));
const none = { results: new Map<string, Timing>(), peak: undefined };
const { runs: measured, retimed } = await benchRecords(options);
const smallRun =
  measured.find((run) => run.name === 'small') ?? (options.smallFrom ? earlier(options.smallFrom) : none);
const bigRun = measured.find((run) => run.name === 'big') ?? none;
const [small, big] = [smallRun.results, bigRun.results];
console.log(table(small, big, retimed));
const offenders = [...big.values()].filter((b) => confirmed(b, small.get(b.path), retimed.get(b.path)));
const passOnly = [...retimed.keys()].filter((path) => !offenders.some((b) => b.path === path));
if (options.big)
  console.log(
    `\n${offenders.length} of ${big.size} GETs over the targets on the big Record` +
      (passOnly.length
        ? ` (${passOnly.length} more over in the pass only, not when timed again: ${passOnly.join(', ')}).`
        : '.'),
  );
for (const [name, run] of [
  ['small', smallRun],
  ['big', bigRun],
] as const) {
  if (run.peak)
    console.log(
      `Peak RSS of the API process, ${name} Record: ${run.peak.mb} MB (first read after ${run.peak.at})${run.peak.mb >= 400 ? ' **over 400 MB**' : ''}`,
    );
}
if (options.out) {
  writeFileSync(
    options.out,
    JSON.stringify(
      {
        small: [...small.values()],
        big: [...big.values()],
        peakRss: { small: smallRun.peak, big: bigRun.peak },
        retimed: Object.fromEntries(retimed),
      },
      null,
      1,
    ),
  );
}
