/**
 * GET /api/dispatch: what the service sends out on its own schedule. The periodic jobs
 * (api/families.ts JOBS, read through api/jobs/registry.ts) with their interval, last run, outcome and next due time from
 * `job_runs`; a failed run shows only its lane through projectFailure, never its words.
 * Outgoing notices (mail, reach) have no stored queue yet, so that block says so instead of zeros.
 */
import type { AppContext } from '../../context.ts';
import { registeredJobs } from '../../jobs/registry.ts';
import { projectFailure } from '../../../shared/boundaries/projectors/failures.ts';
import { sql as fragment } from 'kysely';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export async function dispatchView(ctx: AppContext) {
  const now = ctx.clock.now();
  const utcText = (column: 'last_started_at' | 'last_finished_at' | 'last_failed_at') =>
    fragment<string>`to_char(${fragment.ref(column)} at time zone 'UTC', ${fragment.raw(ISO)})`;
  const rows = await ctx.db.kysely
    .selectFrom('job_runs')
    .select([
      'job',
      utcText('last_started_at').as('started'),
      utcText('last_finished_at').as('finished'),
      'last_outcome as outcome',
      utcText('last_failed_at').$castTo<string | null>().as('failed'),
      'tries',
      'failures',
    ])
    .execute();
  const byJob = new Map(rows.map((row) => [row.job, row]));
  const jobs = registeredJobs().map((job) => {
    const row = byJob.get(job.name);
    const nextDue = row
      ? new Date(Math.max(Date.parse(row.started) + job.intervalMs, 0)).toISOString()
      : null;
    return {
      name: job.name,
      every_seconds: job.intervalMs / 1000,
      last_run: row
        ? {
            started_at: row.started,
            finished_at: row.finished,
            outcome: row.outcome,
            ...(row.outcome === 'failed'
              ? { failure: projectFailure({ lane: 'runtime', external: false, message: '' }) }
              : {}),
          }
        : null,
      last_failed_at: row?.failed ?? null,
      tries: row?.tries ?? 0,
      failures: row?.failures ?? 0,
      next_due_at: nextDue,
      overdue: nextDue !== null && Date.parse(nextDue) + job.intervalMs < now.getTime(),
    };
  });
  return {
    ok: true as const,
    schema: 'civitas.dispatch.v1' as const,
    as_of: now.toISOString(),
    jobs,
    notices: {
      available: false as const,
      reason:
        'No outgoing notice queue is stored: mail is sent when a request asks for it and nothing about it is kept, so there are no delivery states to show.',
      lanes: ['mail', 'reach'],
    },
    rule: "Every process tries every job on its interval; a job's advisory lock lets one do the work, and a try that found the work taken counts as ok. Next due = last start + interval; overdue when a whole further interval has passed. A failed run shows its lane only.",
  };
}
