/**
 * Where the suite's CPU goes, per file (opt-in: `CPU_OUT=<file>` makes vitest.config.ts add this
 * setup file; docs/testing.md). With `isolate: false` a fork runs its files one after another, so
 * the fork's own CPU from this file's set-up to its last `afterAll` is the file's: its imports
 * (first use of a module in that fork), its app, its tests. Its child processes are sampled every
 * 200 ms from /proc (a browser's renderers are its grandchildren, reaped by it, not by us: the
 * fork's own children count misses them). Its database connections are named after it
 * (`PGAPPNAME`), so the server's backends can be told apart. One JSON line per file.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

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
const sample = () => {
  for (const [pid, ms] of descendants()) peak.set(pid, Math.max(ms, peak.get(pid) ?? 0));
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
  const out = process.env.CPU_OUT;
  if (!out) return;
  const usage = process.cpuUsage();
  const line = {
    file,
    pid: process.pid,
    user: Math.round(self.user / 1000),
    system: Math.round(self.system / 1000),
    children,
    wall: Math.round(performance.now() - started.wall),
    rss: Math.round(process.memoryUsage().rss / 2 ** 20),
    /** The fork's CPU so far, all files: its last line per pid is (nearly) the fork's whole. */
    fork: Math.round((usage.user + usage.system) / 1000),
  };
  appendFileSync(out, JSON.stringify(line) + '\n');
});
