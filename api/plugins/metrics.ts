/**
 * Prometheus metrics (prom-client), served to the operator by api/metrics-listener.ts on
 * CIVITAS_METRICS_PORT, never on the public port. One registry per process; under node:cluster the
 * primary asks every worker for its registry and serves the sum (prom-client's AggregatorRegistry).
 *
 * Every label has a bounded set of values: a route is its template (`/api/agent/:handle`), never
 * the URL; a job is a name from the job list; a status is an HTTP status code. docs/operations.md
 * ("Metrics") says what each series means and what to alert on.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.ts';

/** This process's series (the listener adds the primary's own: worker restarts, workers alive). */
export const metricsRegistry = new Registry();

const requestDuration = new Histogram({
  name: 'civitas_http_request_duration_seconds',
  help: "Time to answer a request, by route template, method and status (pages' in-process reads of the API are part of the page's request and not counted apart)",
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

const imprintBatchSize = new Histogram({
  name: 'civitas_imprint_batch_size',
  help: "Imprints per Record transaction (the sequencer's group commit, api/record/sequencer.ts)",
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  registers: [metricsRegistry],
});

const imprintBatchDuration = new Histogram({
  name: 'civitas_imprint_batch_duration_seconds',
  help: 'Time from a batch leaving the queue to its callers being answered (transaction and commit)',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

const jobRuns = new Counter({
  name: 'civitas_job_runs_total',
  help: "Periodic job runs in this process, by job and outcome (a run whose lock another process held is an 'ok' no-op)",
  labelNames: ['job', 'outcome'] as const,
  registers: [metricsRegistry],
});

const jobDuration = new Histogram({
  name: 'civitas_job_duration_seconds',
  help: 'Time a periodic job run took, by job',
  labelNames: ['job'] as const,
  buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 15, 60],
  registers: [metricsRegistry],
});

/** The databases of the apps this process runs (one in a server; tests build several). */
const databases = new Set<Database>();
const poolSum = (key: 'busy' | 'idle' | 'waiting' | 'max') =>
  [...databases].reduce((sum, db) => sum + db.poolUsage()[key], 0);

new Gauge({
  name: 'civitas_db_pool_connections',
  help: 'Database connections of this process by state (busy: running a query or transaction; idle: kept open)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.set({ state: 'busy' }, poolSum('busy'));
    this.set({ state: 'idle' }, poolSum('idle'));
  },
});
new Gauge({
  name: 'civitas_db_pool_waiting',
  help: 'Queries and transactions waiting for a free connection',
  registers: [metricsRegistry],
  collect() {
    this.set(poolSum('waiting'));
  },
});
new Gauge({
  name: 'civitas_db_pool_max',
  help: 'Connections the pool may open (CIVITAS_DB_POOL_MAX; 1 on the embedded database)',
  registers: [metricsRegistry],
  collect() {
    this.set(poolSum('max'));
  },
});

/**
 * The sequencer's batch: its size now, its duration once `commit` settles. Returns `commit`.
 * Nothing is observed while no app of this process serves metrics (no CIVITAS_METRICS_PORT: the
 * `databases` of the metrics plugin below are none): nobody would read it, and the two
 * observations and the timer's promise cost about 2 µs per imprint at 8 writers.
 */
export function observeImprintBatch<T>(size: number, commit: Promise<T>): Promise<T> {
  if (databases.size === 0) return commit;
  imprintBatchSize.observe(size);
  const end = imprintBatchDuration.startTimer();
  void commit.finally(end).catch(() => {});
  return commit;
}

/** One periodic job run (api/jobs/runner.ts). */
export function observeJobRun(job: string, ok: boolean, seconds: number): void {
  jobRuns.inc({ job, outcome: ok ? 'ok' : 'failed' });
  jobDuration.observe({ job }, seconds);
}

let processMetrics = false;
/** Node's own series (CPU, memory, event-loop delay, GC), once per process. */
function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/**
 * Registered by buildApp when CIVITAS_METRICS_PORT is set: times every visitor's request by route
 * template, and reports the app's database pool.
 */
async function metrics(app: FastifyInstance) {
  collectProcessMetrics();
  const db = app.civitas.db;
  databases.add(db);
  app.addHook('onClose', async () => void databases.delete(db));
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.actorKey !== 'internal')
      requestDuration.observe(
        {
          route: request.routeOptions.url ?? '(no route)',
          method: request.method,
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    done();
  });
}

export default fp(metrics, { name: 'civitas-metrics' });
