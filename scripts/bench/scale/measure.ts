/**
 * One route at one connection: requests one after the other, until `samples` are taken or the
 * route's time budget is spent, then p50 and p99 of what was taken. Every request may take the
 * whole budget: one that takes longer is cut off and counted as taking the whole budget. (A
 * request once got only what was left of the budget, so a route of 250 ms with 11 samples in
 * 2,000 ms had its last request cut off and a p99 of "> 2,000 ms" it never took.)
 */
import type { Target } from './targets.ts';
import { measure } from '../harness.ts';

export interface Timing {
  path: string;
  status: number;
  samples: number;
  p50: number;
  p99: number;
  /** the budget ran out inside a request */
  cutOff: boolean;
  /** requests/s at 50 connections (hot reads only) */
  rps?: number;
  /** the API process's resident set after the route, and its peak so far (VmHWM), in MB */
  rssMb?: number;
  peakRssMb?: number;
}

export interface Budget {
  samples: number;
  /** per route, in ms */
  ms: number;
  /** seconds of load at 50 connections per hot read */
  loadSeconds: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** One request, given at most `timeoutMs`: its status, 0 when it was cut off (or failed). */
export type Requester = (base: string, target: Target, timeoutMs: number) => Promise<{ status: number }>;

export async function timeRoute(
  base: string,
  target: Target,
  budget: Budget,
  request: Requester = once,
): Promise<Timing> {
  const times: number[] = [];
  let cutOff = false;
  const end = performance.now() + budget.ms;
  // One warm-up request, unreported: the first call of a route compiles its code paths.
  let status = await request(base, target, budget.ms).then((r) => r.status);
  while (times.length < budget.samples && performance.now() < end) {
    const started = performance.now();
    const result = await request(base, target, budget.ms);
    if (result.status === 0) {
      cutOff = true;
      times.push(budget.ms);
      break;
    }
    status = result.status;
    times.push(performance.now() - started);
  }
  if (times.length === 0) {
    cutOff = true;
    times.push(budget.ms);
  }
  times.sort((a, b) => a - b);
  return {
    path: target.path,
    status,
    samples: times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    cutOff,
  };
}

async function once(base: string, target: Target, timeoutMs: number): Promise<{ status: number }> {
  try {
    const res = await fetch(base + target.url, {
      headers: { accept: target.accept },
      redirect: 'manual',
      signal: AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))),
    });
    await res.arrayBuffer();
    return { status: res.status };
  } catch (error) {
    if (process.env.BENCH_DEBUG) console.error(error);
    return { status: 0 };
  }
}

/** req/s at 50 connections through wrk (or autocannon), for `seconds`. */
export async function loadRoute(base: string, target: Target, seconds: number): Promise<number> {
  const result = await measure(target.path, {
    url: base + target.url,
    headers: { accept: target.accept },
    connections: 50,
    seconds,
  });
  return result.requestsPerSec;
}
