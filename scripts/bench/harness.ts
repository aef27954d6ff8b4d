import { fork, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

export interface Measured {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Starts a server script as a child process; resolves with its address once it says ready. */
export function startServer(script: string, env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = fork(script, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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

/** autocannon at 50 connections unless told otherwise; BENCH_SECONDS per measurement (default 5). */
export async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  const result = await autocannon({ connections: 50, duration: Number(process.env.BENCH_SECONDS ?? 5), ...options });
  return {
    name,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** One line: name, req/s, p50, p99 and, when given, the ratio to the named baseline. */
export function line(m: Measured, baseline?: Measured, baselineName = baseline?.name): string {
  const ratio = baseline ? `  ${(m.requestsPerSec / baseline.requestsPerSec).toFixed(2)}× ${baselineName}` : '';
  const failures = m.non2xx || m.errors ? `  (non-2xx ${m.non2xx}, errors ${m.errors})` : '';
  return `${m.name.padEnd(48)} ${String(m.requestsPerSec).padStart(7)} req/s  p50 ${String(m.p50Ms).padStart(4)} ms  p99 ${String(m.p99Ms).padStart(4)} ms${ratio}${failures}`;
}

export function report(baseline: Measured, rows: Measured[]): void {
  console.log(line(baseline));
  for (const row of rows) console.log(line(row, baseline));
}
