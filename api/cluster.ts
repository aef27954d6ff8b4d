/**
 * CIVITAS_WORKERS: several API processes behind one port (node:cluster). The primary only forks
 * and replaces workers; each worker is a whole, stateless civitas (api/app.ts) sharing the
 * primary's listening socket. Shared state lives where every worker sees it: the database (rows,
 * advisory locks, the Record counter) and Redis for rate limits when REDIS_URL is set.
 *
 * Jobs: every worker starts the job runner, exactly as separate processes of one deployment do.
 * Each job that must happen once takes a PostgreSQL advisory lock in its own transaction and keeps
 * an idempotency guard in its data (api/jobs/runner.ts), so one worker does the work and the others'
 * ticks are no-ops; the one per-process job (organism.vitals-flush) writes only its own process's
 * rows, which is why it must run in every worker.
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { withApiEnv, withApiFlags } from './process-settings.ts';

/**
 * How many API processes to run: CIVITAS_WORKERS, else one per core on PostgreSQL. Always 1 on
 * the embedded database, which is a single process holding its data directory's lock.
 */
export function workerCount(embedded: boolean, env: NodeJS.ProcessEnv = process.env): number {
  if (embedded) return 1;
  const asked = Number(env.CIVITAS_WORKERS ?? '');
  if (Number.isInteger(asked) && asked >= 1) return asked;
  return availableParallelism();
}

const RESTART_FIRST_MS = 250;
const RESTART_MAX_MS = 30_000;
/** Workers replaced since start (civitas_worker_restarts_total, api/metrics-listener.ts). */
export let workerRestarts = 0;

export interface Workers {
  /** http://host:port every worker listens on */
  address: string;
  /** Workers running now (the metrics' civitas_workers). */
  alive(): number;
  /**
   * Stops every worker (SIGTERM: each drains its requests, api/shutdown.ts) and waits for them to
   * exit; one still running after `killAfterMs` is killed.
   */
  stop(killAfterMs?: number): Promise<void>;
}

/**
 * In the primary: forks `count` workers running this same script and resolves once all of them
 * listen. A worker that dies is replaced until stop(). Each worker runs with the API process's
 * settings (api/process-settings.ts) even when the primary was started without them.
 */
export function serveWorkers(
  count: number,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<Workers> {
  let stopping = false;
  const workers = new Set<Worker>();
  // Node's flags for a worker: the primary's own, with every API flag it lacks.
  cluster.setupPrimary({ execArgv: withApiFlags(process.execArgv) });
  const env = withApiEnv({ ...process.env, ...options.env });
  const fork = () => workers.add(cluster.fork(env));
  // A worker that dies is said and replaced after a delay that doubles while deaths come quickly
  // (a crash loop must not spin the CPU), and resets once the workers have lived a minute.
  let delay = RESTART_FIRST_MS;
  let lastDeath = 0;
  cluster.on('exit', (worker, code, signal) => {
    if (!workers.delete(worker) || stopping) return;
    const now = Date.now();
    delay = now - lastDeath > 60_000 ? RESTART_FIRST_MS : Math.min(delay * 2, RESTART_MAX_MS);
    lastDeath = now;
    workerRestarts++;
    options.log?.(
      `worker ${worker.process.pid} died (${signal ?? `exit ${code}`}); starting another in ${delay} ms`,
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delay).unref();
  });
  const stop = async (killAfterMs = 30_000) => {
    stopping = true;
    await Promise.all(
      [...workers].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const kill = setTimeout(() => worker.process.kill('SIGKILL'), killAfterMs);
            worker.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            worker.process.kill('SIGTERM');
          }),
      ),
    );
  };
  const alive = () => workers.size;
  return new Promise((resolve, reject) => {
    const listening = new Set<number>();
    cluster.on('listening', (worker, address) => {
      listening.add(worker.id);
      if (listening.size === count) {
        const host =
          address.address && address.address !== '::' && address.address !== '0.0.0.0'
            ? address.address
            : '127.0.0.1';
        resolve({
          address: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
          alive,
          stop,
        });
      }
    });
    cluster.once('exit', (worker, code) => {
      if (listening.size < count)
        reject(new Error(`worker ${worker.id} exited with ${code} before all workers were listening`));
    });
    for (let i = 0; i < count; i++) fork();
  });
}
