/**
 * Periodic work as jobs (DESIGN.md section 1): every API process runs the same timers, but each
 * job takes a PostgreSQL advisory lock inside its own transaction (pg_try_advisory_xact_lock) and
 * keeps an idempotency guard in its data, so exactly one process does the work and a repeated run
 * is a no-op. Started by api/server.ts through startJobs(app); never by buildApp, so tests and
 * tools that build an app run no timers unless they ask.
 *
 * Host code: it takes the Fastify instance because it ties the timers to the app's lifecycle (an
 * onClose hook), logs through the app's logger and hands jobs the running app (api/jobs/job.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Job } from './job.ts';
import { registeredJobs } from './registry.ts';
import { recordJobRun } from './runs.ts';
import { observeJobRun } from '../plugins/metrics.ts';

export interface RunningJobs {
  /** runs every job once now (awaits them); handy for tools and tests */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export function startJobs(
  app: FastifyInstance,
  jobs: readonly Job[] = registeredJobs(),
  options: { initialDelayMs?: number } = {},
): RunningJobs {
  const ctx = app.civitas;
  const timers: NodeJS.Timeout[] = [];
  const inFlight = new Map<string, Promise<void>>();
  let stopped = false;

  const tick = (job: Job): Promise<void> => {
    const running = inFlight.get(job.name);
    if (running) return running; // a slow run is never overlapped by the same process
    const run = (async () => {
      const startedAt = ctx.clock.now();
      const started = performance.now();
      try {
        await job.run(ctx, app);
        observeJobRun(job.name, true, (performance.now() - started) / 1000);
        await recordJobRun(ctx, job.name, startedAt, ctx.clock.now(), 'ok');
      } catch (error) {
        observeJobRun(job.name, false, (performance.now() - started) / 1000);
        await recordJobRun(ctx, job.name, startedAt, ctx.clock.now(), 'failed');
        // Logged by kind only: job errors never carry request data, and the next tick retries.
        app.log.error(
          { job: job.name, err: { type: (error as Error)?.name, message: (error as Error)?.message } },
          'job failed',
        );
      } finally {
        inFlight.delete(job.name);
      }
    })();
    inFlight.set(job.name, run);
    return run;
  };

  for (const job of jobs) {
    const first = setTimeout(() => {
      if (stopped) return;
      void tick(job);
      const every = setInterval(() => void tick(job), job.intervalMs);
      every.unref();
      timers.push(every);
    }, options.initialDelayMs ?? 1_000);
    first.unref();
    timers.push(first);
  }

  const stop = async () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    await Promise.allSettled([...inFlight.values()]);
  };
  try {
    // Registered after buildApp's own onClose hook, so it runs before it (Fastify runs them last
    // first): the job runs in flight finish before the last vitals are written and the pool closes.
    app.addHook('onClose', stop);
  } catch {
    // already started (tests start jobs on a ready app): the caller stops them itself
  }
  return { runOnce: async () => void (await Promise.all(jobs.map(tick))), stop };
}
