/**
 * Where the suite's CPU goes, per file (opt-in: `CPU_OUT=<file>` makes vitest.config.ts add this
 * setup file; docs/testing.md). With `isolate: false` a fork runs its files one after another, so
 * the fork's own CPU from this file's set-up to its last `afterAll` is the file's: its imports
 * (first use of a module in that fork), its app, its tests. Its child processes are sampled every
 * 200 ms from /proc (a browser's renderers are its grandchildren, reaped by it, not by us: the
 * fork's own children count misses them). Its database connections are named after it
 * (`PGAPPNAME`), so the server's backends can be told apart, and the CPU of the PostgreSQL backends
 * serving its databases (test/helpers/db.ts hands each copy's name to the meter, metered.ts; a
 * backend's command line names its database) is sampled the same way: `postgres`. One JSON line
 * per file.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { METERED } from './metered.ts';

/** CPU ms of a process from its /proc stat line: utime + stime (field 14, 15; 10 ms ticks). */
function statOf(pid: number | 'self'): { ppid: number; ms: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10 };
  } catch {
    return undefined;
  }
}

/** The names of the databases this file made (test/helpers/db.ts adds them while metered). */
const databases = new Set<string>();
(globalThis as { [METERED]?: Set<string> })[METERED] = databases;

/** Live PostgreSQL backends on one of `databases`, with their CPU ms so far. */
function backends(): Map<number, number> {
  const found = new Map<number, number>();
  if (!databases.size) return found;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const line = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (![...databases].some((db) => line.includes(` ${db} `))) continue;
      const cpu = statOf(Number(name));
      if (cpu) found.set(Number(name), cpu.ms);
    } catch {
      // gone between the listing and the read
    }
  }
  return found;
}

/** Every live descendant of this process with its CPU ms so far. */
function descendants(): Map<number, number> {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (!stat) continue;
    parent.set(Number(name), stat.ppid);
    cpu.set(Number(name), stat.ms);
  }
  const found = new Map<number, number>();
  for (const [pid, ms] of cpu) {
    for (let up = parent.get(pid), hops = 0; up && up > 1 && hops < 20; up = parent.get(up), hops++)
      if (up === process.pid) {
        found.set(pid, ms);
        break;
      }
  }
  return found;
}

const started = { self: process.cpuUsage(), wall: performance.now(), before: descendants() };
const peak = new Map<number, number>();
const postgresPeak = new Map<number, number>();
const sample = () => {
  for (const [pid, ms] of descendants()) peak.set(pid, Math.max(ms, peak.get(pid) ?? 0));
  for (const [pid, ms] of backends()) postgresPeak.set(pid, Math.max(ms, postgresPeak.get(pid) ?? 0));
};
const timer = setInterval(sample, 200);
let file = '';
const previousAppName = process.env.PGAPPNAME;

beforeAll(() => {
  file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  process.env.PGAPPNAME = `vt:${file}`.slice(0, 63);
});

afterAll(() => {
  sample();
  clearInterval(timer);
  const self = process.cpuUsage(started.self);
  if (previousAppName === undefined) delete process.env.PGAPPNAME;
  else process.env.PGAPPNAME = previousAppName;
  let children = 0;
  for (const [pid, ms] of peak) children += ms - (started.before.get(pid) ?? 0);
  let postgres = 0;
  for (const ms of postgresPeak.values()) postgres += ms;
  delete (globalThis as { [METERED]?: Set<string> })[METERED];
  const out = process.env.CPU_OUT;
  if (!out) return;
  const usage = process.cpuUsage();
  const line = {
    file,
    pid: process.pid,
    user: Math.round(self.user / 1000),
    system: Math.round(self.system / 1000),
    children,
    /** PostgreSQL backends on this file's databases (a backend that ended between samples: its last 200 ms missed). */
    postgres,
    wall: Math.round(performance.now() - started.wall),
    rss: Math.round(process.memoryUsage().rss / 2 ** 20),
    /** The fork's CPU so far, all files: its last line per pid is (nearly) the fork's whole. */
    fork: Math.round((usage.user + usage.system) / 1000),
  };
  appendFileSync(out, JSON.stringify(line) + '\n');
});
