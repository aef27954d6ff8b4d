import { execFile, execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { API_NODE_FLAGS, API_PROCESS_ENV } from '../../api/process-settings.ts';

export interface Measured {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** CPU the server (its process and every worker) spent per answered request, in µs; absent off Linux. */
  serverCpuUs?: number;
}

const TICK_MS = 10; // Linux USER_HZ: /proc times are in hundredths of a second

/**
 * CPU time (user + system, ms) of a process and all its descendants (cluster workers), read from
 * /proc. On a shared machine the load generator, the database and civitas compete for the same
 * cores, so throughput alone mixes in the client's cost; CPU per request is the server's own.
 */
export function treeCpuMs(root: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const name of entries) {
    try {
      const rest = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1];
      if (rest === undefined) continue; // not a stat line: nothing to count
      const fields = rest.split(' ');
      stats.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop()!;
    total += stats.get(pid)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === pid) queue.push(child);
  }
  return stats.has(root) ? total * TICK_MS : undefined;
}

/**
 * The Node flags and the environment an API process runs with (api/process-settings.ts: the young
 * generation capped at 2 × 32 MB, the old generation at 256 MB, two malloc arenas; `npm start`,
 * `npm run api` and the Containerfile's CMD give the same). Benches run civitas with them.
 */
export const API_PROCESS_FLAGS = API_NODE_FLAGS;
export { API_PROCESS_ENV };

/**
 * Starts a server script as a child process; resolves with its address once it says ready.
 * `execArgv`: Node's flags for it (default this process's; API_PROCESS_FLAGS for civitas, with
 * API_PROCESS_ENV in `env`).
 */
export function startServer(
  script: string,
  env: NodeJS.ProcessEnv = {},
  execArgv: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = fork(script, {
      execArgv: [...process.execArgv, ...execArgv],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    child.on('message', (message: { ready?: string }) => {
      if (message.ready) resolve({ url: message.ready, child });
    });
  });
}

/** Stops a server started by startServer and waits for it to exit (it cleans up on disconnect). */
export async function stopServer(server: { child: ChildProcess }): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  if (server.child.connected) server.child.disconnect();
  else server.child.kill();
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

/**
 * The load generator. wrk (C, `apt-get install wrk`) when it is on the PATH, else autocannon.
 * On a two-core machine the client shares the cores with the server and the database, and
 * autocannon (JavaScript) spends about 0.5 ms of CPU taking in a 30 KB answer — more than the
 * server spends sending it — so with autocannon a large answer measures the client. Baselines and
 * civitas are always measured with the same client in one run. BENCH_CLIENT=autocannon forces it.
 */
export const CLIENT: 'wrk' | 'autocannon' =
  process.env.BENCH_CLIENT === 'autocannon' || !hasWrk() ? 'autocannon' : 'wrk';

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 but exists; a missing wrk is ENOENT (status null)
    return typeof (error as { status?: number | null }).status === 'number';
  }
}

/** What a measurement sends: GETs of `url` (with `headers`), or POSTs whose body `body(n)` makes per request. */
export interface Load {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  /**
   * A POST per request, its JSON body made from this template: `{unique}` becomes a mark that tells
   * the client's threads apart, `{n}` the thread's request count (so every body can be new).
   */
  postTemplate?: string;
  /** How long to load, in seconds; default BENCH_SECONDS (5). */
  seconds?: number;
}

/**
 * `load` at 50 connections unless told otherwise, for BENCH_SECONDS (default 5). With `server` (a
 * child started by startServer), also the server's CPU per answered request.
 */
export async function measure(name: string, load: Load, server?: { child: ChildProcess }): Promise<Measured> {
  const pid = server?.child.pid;
  const before = pid === undefined ? undefined : treeCpuMs(pid);
  const result = CLIENT === 'wrk' ? await runWrk(load) : await runAutocannon(load);
  const after = pid === undefined ? undefined : treeCpuMs(pid);
  return {
    ...(before !== undefined && after !== undefined && result.total > 0
      ? { serverCpuUs: Math.round(((after - before) * 1000) / result.total) }
      : {}),
    name,
    requestsPerSec: Math.round(result.requestsPerSec),
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** The template with its marks filled in (the autocannon side of `postTemplate`; wrk's Lua does the same). */
function fill(template: string, unique: string, n: number): string {
  return template.replaceAll('{unique}', unique).replaceAll('{n}', String(n));
}

interface Run {
  total: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}
const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);

async function runAutocannon(load: Load): Promise<Run> {
  let n = 0;
  const result = await autocannon({
    url: load.url,
    headers: load.headers,
    connections: load.connections ?? 50,
    duration: load.seconds ?? seconds(),
    ...(load.postTemplate
      ? {
          requests: [
            {
              method: 'POST',
              headers: { ...load.headers, 'content-type': 'application/json' },
              setupRequest: (request) => ({ ...request, body: fill(load.postTemplate!, 'a', ++n) }),
            },
          ],
        }
      : {}),
  });
  return {
    total: result.requests.total,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * wrk's Lua: POST bodies from the template, and the summary line this harness reads. Failures are
 * wrk's own count of answers with a status above 399 (`summary.errors.status`; a 304 is an
 * answer). No `response()` callback: with one, wrk copies every body into a Lua string, and the
 * client, not the server, sets the pace of a large answer.
 */
const WRK_SCRIPT = `
local threads = {}
local counter = 0
function setup(thread)
  thread:set("unique", tostring(#threads + 1))
  table.insert(threads, thread)
end
function init(args)
  if POST_TEMPLATE then wrk.method = "POST"; wrk.headers["content-type"] = "application/json" end
end
function request()
  if not POST_TEMPLATE then return wrk.format() end
  counter = counter + 1
  local body = POST_TEMPLATE:gsub("{unique}", unique):gsub("{n}", tostring(counter))
  return wrk.format(nil, nil, nil, body)
end
function done(summary, latency, requests)
  io.write(string.format("CIVITAS total=%d p50=%f p99=%f failed=%d errors=%d\\n", summary.requests, latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`;

async function runWrk(load: Load): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'civitas-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(
    script,
    (load.postTemplate ? `POST_TEMPLATE = ${JSON.stringify(load.postTemplate)}\n` : '') + WRK_SCRIPT,
  );
  const connections = load.connections ?? 50;
  const args = [
    '-t',
    String(Math.min(2, connections)),
    '-c',
    String(connections),
    '-d',
    `${load.seconds ?? seconds()}s`,
    '-s',
    script,
  ];
  for (const [key, value] of Object.entries(load.headers ?? {})) args.push('-H', `${key}: ${value}`);
  // The script's folder goes as soon as wrk has read it: a bench run leaves nothing in /tmp.
  const { stdout } = await promisify(execFile)('wrk', [...args, load.url], { encoding: 'utf8' }).finally(() =>
    rmSync(dir, { recursive: true, force: true }),
  );
  const line = /CIVITAS total=(\d+) p50=([\d.]+) p99=([\d.]+) failed=(\d+) errors=(\d+)/.exec(stdout);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  if (!line || !rate) throw new Error(`wrk said:\n${stdout}`);
  const round = (ms: string | undefined) => Math.round(Number(ms) * 100) / 100;
  return {
    total: Number(line[1]),
    requestsPerSec: Number(rate[1]),
    p50Ms: round(line[2]),
    p99Ms: round(line[3]),
    errors: Number(line[5]),
    non2xx: Number(line[4]),
  };
}

/** One line: name, req/s, p50, p99 and, when given, the ratio to the named baseline. */
export function line(m: Measured, baseline?: Measured, baselineName = baseline?.name): string {
  const ratio = baseline
    ? `  ${(m.requestsPerSec / baseline.requestsPerSec).toFixed(2)}× ${baselineName}`
    : '';
  const failures = m.non2xx || m.errors ? `  (non-2xx ${m.non2xx}, errors ${m.errors})` : '';
  const cpu = m.serverCpuUs === undefined ? '' : `  cpu ${String(m.serverCpuUs).padStart(4)} µs/req`;
  const cpuRatio =
    baseline?.serverCpuUs && m.serverCpuUs
      ? ` (by server cpu ${(baseline.serverCpuUs / m.serverCpuUs).toFixed(2)}×)`
      : '';
  return `${m.name.padEnd(48)} ${String(m.requestsPerSec).padStart(7)} req/s  p50 ${String(m.p50Ms).padStart(4)} ms  p99 ${String(m.p99Ms).padStart(4)} ms${cpu}${ratio}${cpuRatio}${failures}`;
}

export function report(baseline: Measured, rows: Measured[]): void {
  console.log(line(baseline));
  for (const row of rows) console.log(line(row, baseline));
}
