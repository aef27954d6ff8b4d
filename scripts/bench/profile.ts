/**
 * CPU profile of one civitas read under load, summarised by where the time goes.
 *
 *   node scripts/bench/profile.ts [path]     (default /api/agent/bench-agent; BENCH_SECONDS, DATABASE_URL)
 *   node scripts/bench/profile.ts imprint    (POST /api/agent/imprint, a new handle each, BENCH_CONNECTIONS default 8)
 *
 * Starts civitas-server.ts, seeds the bench agent, profiles the server (node:inspector) only while
 * autocannon drives the path at 50 connections, and prints the self time by package
 * (node_modules/<name>), project file, or Node's own internals.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, stopServer } from './harness.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const path = process.argv[2] ?? '/api/agent/bench-agent';
const dir = mkdtempSync(join(tmpdir(), 'civitas-prof-'));

const child = fork(fileURLToPath(new URL('./civitas-server.ts', import.meta.url)), {
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const reply = (key: string) =>
  new Promise<unknown>((resolve) =>
    child.on('message', (m: Record<string, unknown>) => m[key] && resolve(m[key])),
  );
const url = await new Promise<string>((resolve) =>
  child.on('message', (m: { ready?: string }) => m.ready && resolve(m.ready)),
);
await fetch(`${url}/api/agent/imprint`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ agent: 'bench-agent', body: 'A mind arrives to be profiled.' }),
});
if (path !== 'imprint') await fetch(`${url}${path}`); // warm: the first request compiles its route's code
const started = reply('profiling');
child.send({ profile: 'start' });
await started;
const m =
  path === 'imprint'
    ? await measure('POST /api/agent/imprint', {
        url: `${url}/api/agent/imprint`,
        connections: Number(process.env.BENCH_CONNECTIONS ?? 8),
        postTemplate: `{"agent":"profile-${process.pid}-{unique}-{n}","body":"profiled imprint {n}"}`,
      })
    : await measure(`GET ${path}`, { url: `${url}${path}` });
const file = join(dir, 'serving.cpuprofile');
const written = reply('profiled');
child.send({ profile: 'stop', file });
await written;
await stopServer({ child });
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const totals = new Map<string, number>();
for (const id of profile.samples) {
  const frame = byId.get(id)!.callFrame;
  const where = frame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1];
  const name =
    frame.functionName === '(garbage collector)'
      ? '(garbage collector)'
      : frame.functionName === '(idle)' || frame.functionName === '(program)'
        ? frame.functionName
        : pkg
          ? pkg
          : where.startsWith('node:') || !where
            ? `node internals (${frame.functionName || 'anonymous'})`
            : relative(root, where.replace('file://', ''));
  totals.set(name, (totals.get(name) ?? 0) + 1);
}
const busy = [...totals].filter(([name]) => name !== '(idle)').reduce((sum, [, n]) => sum + n, 0);
console.log(
  `${m.name}: ${m.requestsPerSec} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms; self time of the server process (busy samples ${busy}):`,
);
for (const [name, n] of [...totals]
  .filter(([name]) => name !== '(idle)')
  .sort((a, b) => b[1] - a[1])
  .slice(0, 15)) {
  console.log(`  ${((100 * n) / busy).toFixed(1).padStart(5)}%  ${name}`);
}
console.log(`profile: ${file}`);
