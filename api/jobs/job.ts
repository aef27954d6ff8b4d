/**
 * One periodic job (api/jobs/runner.ts runs them). Its `run` takes the AppContext; the running
 * app is handed over as well because a job may re-run the live probes, which are requests to the
 * app itself (the organism's vigilance watch runs the self-trials, the census among them).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export interface Job {
  name: string;
  /** how often each process tries (the lock makes one of them do it) */
  intervalMs: number;
  run(ctx: AppContext, app: FastifyInstance): Promise<unknown>;
}
