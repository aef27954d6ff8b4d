/**
 * Readiness and versions, read live: GET /health, /_health, /api/version and MCP civitas_status
 * (api/people/mcp.ts) all answer from here.
 */
import { APP_VERSION } from '../config.ts';
import type { AppContext } from '../context.ts';
import { coalescer } from '../../shared/coalesce.ts';
import { MIGRATIONS } from '../db/migrations/index.ts';
import { degradations } from '../plugins/degradations.ts';
import type { Counts } from '../db/rows.ts';

const startedAt = Date.now();

type DatabaseCheck = { ok: boolean; kind: 'embedded' | 'postgresql'; latency_ms: number | null };
const checks = coalescer<AppContext, DatabaseCheck>();

/** Every migration this release knows, by name: the schema is current when all of them are applied. */
const MIGRATION_NAMES = MIGRATIONS.map((migration) => migration.name);
const SCHEMA_CURRENT = 'select count(*)::int as applied from civitas_migrations where name = any($1)';

/**
 * Readiness: the database answers, and its schema is at this release's migration (a database
 * recreated empty behind a running process answers `select 1` but serves nothing). Latency is measured, never assumed. Probes that arrive
 * together share one query begun after they arrived (shared/coalesce.ts), so a burst of health checks
 * costs the database one round trip per round-trip time, and every answer is still fresh.
 */
export function databaseCheck(ctx: AppContext): Promise<DatabaseCheck> {
  return checks(ctx, () => probeDatabase(ctx), ctx.db.embedded);
}

async function probeDatabase(ctx: AppContext): Promise<DatabaseCheck> {
  const kind = ctx.db.embedded ? 'embedded' : 'postgresql';
  const t0 = performance.now();
  try {
    const [row] = await ctx.db.query<Counts<'applied'>>(SCHEMA_CURRENT, [MIGRATION_NAMES]);
    if (row?.applied !== MIGRATION_NAMES.length) return { ok: false, kind, latency_ms: null };
    return { ok: true, kind, latency_ms: Math.round((performance.now() - t0) * 100) / 100 };
  } catch {
    return { ok: false, kind, latency_ms: null };
  }
}

export const uptimeSeconds = () => Math.round((Date.now() - startedAt) / 1000);

/** How long the load-balancer probe waits for the database before it calls this process unready. */
export const PROBE_TIMEOUT_MS = 2000;

/** GET /_health: can this process serve — the database answered within PROBE_TIMEOUT_MS, schema current. */
export async function canServe(ctx: AppContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, PROBE_TIMEOUT_MS, false)));
  try {
    return await Promise.race([databaseCheck(ctx).then((check) => check.ok), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** GET /health and MCP civitas_status: readiness, read live. */
export async function readiness(ctx: AppContext) {
  const database = await databaseCheck(ctx);
  const reasons = degradations(ctx);
  if (!database.ok) reasons.unshift('database: not answering, or its schema is not at this release');
  return {
    ok: database.ok,
    status: reasons.length ? ('degraded' as const) : ('ready' as const),
    version: APP_VERSION,
    uptime_s: uptimeSeconds(),
    database,
    ...(reasons.length ? { reasons } : {}),
  };
}
