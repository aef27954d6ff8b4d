/**
 * The organism's periodic jobs (api/jobs/runner.ts JOBS): the vigilance watch (self-trials and
 * truth checks every 5 minutes) and the daily dream. Each takes its own advisory lock, so one
 * process does the work.
 */
import { censusHost } from '../boundaries/live-probes.ts';
import type { Job } from '../jobs/job.ts';
import { dreamJob } from './themes/dreaming.ts';
import { vigilanceJob } from './checks/vigilance.ts';
import { discriminationJob } from './checks/discrimination.ts';

export const organismJobs: Job[] = [
  // The watch re-runs the self-trials, whose census probes the running app: the job gets the app
  // (api/jobs/job.ts) and builds the census's host from it.
  { name: 'organism.vigilance', intervalMs: 300_000, run: (ctx, app) => vigilanceJob(ctx, censusHost(app)) },
  { name: 'organism.dreaming', intervalMs: 600_000, run: (ctx) => dreamJob(ctx) },
  // Every stored imprint is read here, never by a request (GET /api/discrimination reads the result).
  { name: 'organism.discrimination', intervalMs: 600_000, run: (ctx) => discriminationJob(ctx) },
];
