/**
 * The organism's periodic jobs (api/jobs/runner.ts JOBS): the vigilance watch (self-trials and
 * truth checks every 5 minutes) and the daily dream. Each takes its own advisory lock, so one
 * process does the work.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { dreamJob } from './themes/dreaming.ts';
import { vigilanceJob } from './checks/vigilance.ts';

export const organismJobs = [
  { name: 'organism.vigilance', intervalMs: 300_000, run: (_ctx: AppContext, app: FastifyInstance) => vigilanceJob(app) },
  { name: 'organism.dreaming', intervalMs: 600_000, run: (ctx: AppContext) => dreamJob(ctx) },
];
