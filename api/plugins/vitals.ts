/**
 * Vitals: every answered request (status and response time) is counted into an in-process ring
 * of per-minute buckets, and every 5xx failure (through the errors plugin's hook point) into a
 * lane-and-time list. A job that runs in EVERY process (api/jobs/runner.ts `organism.vitals-flush`)
 * writes them to `vitals_minutes` (one row per process and minute, merged on conflict) and
 * `failures`; readers flush their own process first, then aggregate in SQL over all processes.
 * Nothing about the request is kept but its status class, duration and (for failures) its lane.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { FAILURE_LANES, type FailureLane } from '../../shared/boundaries/projectors/failures.ts';
import { answeredByProviderOff } from './errors.ts';
import { withoutQuery } from '../../shared/url-path.ts';

/** Upper bounds (ms) of the latency histogram; the last bucket is everything slower. */
export const LATENCY_BOUNDS_MS = [
  1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250, 300, 400, 500, 600,
  800, 1000, 1500, 2000, 3000, 5000, 10000, 30000,
] as const;
export const BUCKETS = LATENCY_BOUNDS_MS.length + 1;
/** Minutes kept in memory before the oldest is dropped (the ring); the job flushes long before. */
const RING_MINUTES = 120;
/** Stored minutes and failures older than this are deleted by the flush job. */
export const RETENTION_DAYS = 35;

interface Minute {
  requests: number;
  client_errors: number;
  server_errors: number;
  latency_sum_ms: number;
  latency_max_ms: number;
  buckets: number[];
}

export class VitalsBuffer {
  readonly processId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  minutes = new Map<number, Minute>();
  failures: { lane: FailureLane; at: Date; external: boolean }[] = [];

  record(at: Date, status: number, ms: number) {
    const key = Math.floor(at.getTime() / 60_000);
    let minute = this.minutes.get(key);
    if (!minute) {
      minute = {
        requests: 0,
        client_errors: 0,
        server_errors: 0,
        latency_sum_ms: 0,
        latency_max_ms: 0,
        buckets: new Array(BUCKETS).fill(0),
      };
      this.minutes.set(key, minute);
      if (this.minutes.size > RING_MINUTES) this.minutes.delete(Math.min(...this.minutes.keys()));
    }
    minute.requests += 1;
    if (status >= 400 && status < 500) minute.client_errors += 1;
    if (status >= 500 && status !== 501) minute.server_errors += 1;
    const safe = Number.isFinite(ms) && ms >= 0 ? ms : 0;
    minute.latency_sum_ms += safe;
    minute.latency_max_ms = Math.max(minute.latency_max_ms, safe);
    // bucket ≤ LATENCY_BOUNDS_MS.length < BUCKETS: both reads are in bounds (the last bucket is the slowest).
    let bucket = 0;
    while (bucket < LATENCY_BOUNDS_MS.length && safe > LATENCY_BOUNDS_MS[bucket]!) bucket++;
    minute.buckets[bucket]! += 1;
  }

  fail(at: Date, lane: FailureLane, external = false) {
    if (this.failures.length < 10_000) this.failures.push({ lane, at, external });
  }
}

const buffers = new WeakMap<AppContext, VitalsBuffer>();

export function vitalsBufferOf(ctx: AppContext): VitalsBuffer | undefined {
  return buffers.get(ctx);
}

/** Which lane a failed request belongs to (FAILURE_LANES); everything else is the runtime's own. */
export function laneOf(path: string): FailureLane {
  if (path === '/mcp' || path.startsWith('/mcp/')) return 'mcp';
  if (/^\/api\/(checkout|portal|patronage|covenant|fund-evolution|inscribe|stripe|oracle)(\/|$)/.test(path))
    return 'checkout';
  if (path.startsWith('/api/soul')) return 'soul';
  if (path.startsWith('/api/treasury') || path.startsWith('/api/equity')) return 'treasury';
  if (path.startsWith('/api/dispatch')) return 'reach';
  if (/^\/(auth|initiate|return|reconcile|signout|identity|sovereign\/email)(\/|$)/.test(path))
    return 'identity';
  return 'runtime';
}

/**
 * Writes this process's pending minutes and failures. Minutes merge into their row on conflict
 * (a minute may be flushed twice while it is still filling). On a database error the pending
 * figures are put back for the next flush.
 */
export async function flushVitals(ctx: AppContext): Promise<{ minutes: number; failures: number }> {
  const buffer = buffers.get(ctx);
  if (!buffer) return { minutes: 0, failures: 0 };
  const minutes = buffer.minutes;
  const failures = buffer.failures;
  buffer.minutes = new Map();
  buffer.failures = [];
  try {
    await ctx.db.transaction(async (tx) => {
      for (const [key, m] of minutes) await upsertMinute(tx, buffer.processId, key, m);
      if (failures.length) {
        await tx.query(
          'insert into failures (lane, at, external) select * from unnest($1::text[], $2::timestamptz[], $3::boolean[])',
          [
            failures.map((f) => f.lane),
            failures.map((f) => f.at.toISOString()),
            failures.map((f) => f.external),
          ],
        );
      }
    });
  } catch (error) {
    for (const [key, m] of minutes) {
      const now = buffer.minutes.get(key);
      if (!now) buffer.minutes.set(key, m);
      else {
        now.requests += m.requests;
        now.client_errors += m.client_errors;
        now.server_errors += m.server_errors;
        now.latency_sum_ms += m.latency_sum_ms;
        now.latency_max_ms = Math.max(now.latency_max_ms, m.latency_max_ms);
        now.buckets = now.buckets.map((n, i) => n + (m.buckets[i] ?? 0));
      }
    }
    buffer.failures.unshift(...failures);
    throw error;
  }
  return { minutes: minutes.size, failures: failures.length };
}

async function upsertMinute(tx: Sql, processId: string, key: number, m: Minute) {
  await tx.query(
    `insert into vitals_minutes (process_id, minute, requests, client_errors, server_errors, latency_sum_ms, latency_max_ms, buckets)
     values ($1, $2, $3, $4, $5, $6, $7, $8::integer[])
     on conflict (process_id, minute) do update set
       requests = vitals_minutes.requests + excluded.requests,
       client_errors = vitals_minutes.client_errors + excluded.client_errors,
       server_errors = vitals_minutes.server_errors + excluded.server_errors,
       latency_sum_ms = vitals_minutes.latency_sum_ms + excluded.latency_sum_ms,
       latency_max_ms = greatest(vitals_minutes.latency_max_ms, excluded.latency_max_ms),
       buckets = (select array_agg(coalesce(a, 0) + coalesce(b, 0) order by i)
                    from unnest(vitals_minutes.buckets, excluded.buckets) with ordinality as t(a, b, i))`,
    [
      processId,
      new Date(key * 60_000).toISOString(),
      m.requests,
      m.client_errors,
      m.server_errors,
      m.latency_sum_ms,
      m.latency_max_ms,
      m.buckets,
    ],
  );
}

/** The periodic job (every process runs it; no lock: each writes only its own rows). */
export async function vitalsFlushJob(ctx: AppContext) {
  const flushed = await flushVitals(ctx);
  const cutoff = new Date(ctx.clock.now().getTime() - RETENTION_DAYS * 86_400_000).toISOString();
  await ctx.db.query('delete from vitals_minutes where minute < $1', [cutoff]);
  await ctx.db.query('delete from failures where at < $1', [cutoff]);
  return flushed;
}

async function vitals(app: FastifyInstance) {
  const buffer = new VitalsBuffer();
  buffers.set(app.civitas, buffer);
  app.failureListeners.push((request, _status, failure) => {
    // A provider's failure goes to the lane its refusal names (checkout, treasury, mail…), else the path's.
    const named = (FAILURE_LANES as readonly string[]).includes(failure.lane ?? '')
      ? (failure.lane as FailureLane)
      : undefined;
    buffer.fail(app.civitas.clock.now(), named ?? laneOf(withoutQuery(request.url)), failure.external);
  });
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // Pages reading the API in process (and the census's own probes) are not visitors' requests.
    // A provider switched off here answers 503 by configuration: counted as a request, not a server error.
    if (request.actorKey !== 'internal')
      buffer.record(
        app.civitas.clock.now(),
        answeredByProviderOff(request) ? 200 : reply.statusCode,
        reply.elapsedTime,
      );
    done();
  });
}

export default fp(vitals, { name: 'civitas-vitals', dependencies: ['civitas-errors'] });
