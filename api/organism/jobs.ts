/**
 * The organism's periodic jobs (api/families.ts JOBS): the verification run that keeps the
 * self-trials, truth checks and vigilance (every minute: checks/knowledge.ts) and the daily dream. Each takes its own advisory lock, so one
 * process does the work.
 */
import { censusHost } from '../boundaries/live-probes.ts';
import type { Job } from '../jobs/job.ts';
import { dreamJob } from './themes/dreaming.ts';
import { knowledgeRun } from './checks/knowledge.ts';
import { discriminationJob } from './checks/discrimination.ts';
import { KEPT_INTERVAL_MS, refreshKept } from '../db/kept-views.ts';
import { keptObservatory } from './observatory/observatory.ts';
import { keptPrevention } from './experiments/prevention.ts';
import { keptParadox } from './experiments/expeditions.ts';
import { keptSwarm } from './observatory/swarm.ts';
import { keptResonance } from '../people/resonance.ts';

export const organismJobs: Job[] = [
  // The verification run (walks, census, kept answer, watch pass, truth round): its census probes
  // the running app, so the job gets the app (api/jobs/job.ts) and builds the census's host from it.
  { name: 'organism.vigilance', intervalMs: 60_000, run: (ctx, app) => knowledgeRun(ctx, censusHost(app)) },
  { name: 'organism.dreaming', intervalMs: 600_000, run: (ctx) => dreamJob(ctx) },
  // Every stored imprint is read here, never by a request (GET /api/discrimination reads the result).
  { name: 'organism.discrimination', intervalMs: 600_000, run: (ctx) => discriminationJob(ctx) },
  // The swarm (a day of activity), the prevention experiment's and the recovery paradox's findings, the dashboard and resonance's ranking, kept for requests to read (api/db/kept-views.ts).
  {
    name: 'organism.observatory',
    intervalMs: KEPT_INTERVAL_MS,
    run: (ctx) => refreshKept(ctx, [keptSwarm, keptPrevention, keptParadox, keptObservatory, keptResonance]),
  },
];
