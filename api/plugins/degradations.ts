/**
 * What this process serves without, right now: a shared dependency that is away while the process
 * still serves (Redis → per-process rate counters). Readiness (/_health, /health) lists the
 * reasons and says `degraded`; the process stays in the load balancer's rotation.
 */
import type { AppContext } from '../context.ts';

type Check = () => string | undefined;
const checks = new WeakMap<AppContext, Check[]>();

/** Registers a check that names why `ctx`'s process is degraded, or undefined while it is not. */
export function watchDegradation(ctx: AppContext, check: Check): void {
  const list = checks.get(ctx) ?? [];
  list.push(check);
  checks.set(ctx, list);
}

/** The reasons this process is degraded now; empty when every dependency answers. */
export function degradations(ctx: AppContext): string[] {
  return (checks.get(ctx) ?? []).map((check) => check()).filter((reason) => reason !== undefined);
}
