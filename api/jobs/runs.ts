/**
 * Keeps one summary row per periodic job (`job_runs`): its last start, end and outcome, and how
 * many tries and failures this deployment saw. Called by the job runner after every try, in
 * every process (a try that found another process holding the job's lock counts as an ok try).
 * No error words are stored: only the outcome.
 */
import type { AppContext } from '../context.ts';

export async function recordJobRun(
  ctx: AppContext,
  job: string,
  startedAt: Date,
  finishedAt: Date,
  outcome: 'ok' | 'failed',
): Promise<void> {
  try {
    await ctx.db.query(
      `insert into job_runs (job, last_started_at, last_finished_at, last_outcome, last_failed_at, tries, failures)
       values ($1, $2, $3, $4, case when $4 = 'failed' then $3::timestamptz end, 1, case when $4 = 'failed' then 1 else 0 end)
       on conflict (job) do update set
         last_started_at = greatest(job_runs.last_started_at, excluded.last_started_at),
         last_finished_at = greatest(job_runs.last_finished_at, excluded.last_finished_at),
         last_outcome = case when excluded.last_finished_at >= job_runs.last_finished_at then excluded.last_outcome else job_runs.last_outcome end,
         last_failed_at = coalesce(greatest(job_runs.last_failed_at, excluded.last_failed_at), job_runs.last_failed_at, excluded.last_failed_at),
         tries = job_runs.tries + 1,
         failures = job_runs.failures + excluded.failures`,
      [job, startedAt.toISOString(), finishedAt.toISOString(), outcome],
    );
  } catch {
    // The summary is best effort: a job's own work never fails because its bookkeeping did.
  }
}
