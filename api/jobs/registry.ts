/**
 * The periodic jobs this deployment runs, as the wiring file (api/families.ts) hands them in. The
 * jobs family owns the list's place but not its contents: each family's job lives with that
 * family, so the runner and the organism's dispatch page read the list here instead of importing
 * the families (which would make jobs depend on everything above it).
 */
import type { Job } from './job.ts';

let jobs: readonly Job[] = [];

/** Sets the deployment's job list (buildApp, through wireRegistries; repeating replaces it). */
export function registerJobs(list: readonly Job[]): void {
  jobs = Object.freeze([...list]);
}

/** Every registered job, in the wiring file's order. */
export function registeredJobs(): readonly Job[] {
  return jobs;
}
