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

export async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  const result = await autocannon({ connections: 10, duration: Number(process.env.BENCH_SECONDS ?? 5), ...options });
  return {
    name,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function report(baseline: Measured, rows: Measured[]): void {
  const line = (m: Measured) =>
    `${m.name.padEnd(44)} ${String(m.requestsPerSec).padStart(8)} req/s  p50 ${String(m.p50Ms).padStart(4)} ms  p99 ${String(m.p99Ms).padStart(4)} ms  ratio ${(m.requestsPerSec / baseline.requestsPerSec).toFixed(3)}${m.non2xx || m.errors ? `  (non-2xx ${m.non2xx}, errors ${m.errors})` : ''}`;
  console.log(line(baseline));
  for (const row of rows) console.log(line(row));
}
