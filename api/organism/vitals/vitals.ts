/**
 * Vitals from stored measurements: `vitals_minutes` rows written by every process
 * (api/plugins/vitals.ts), aggregated here in SQL. This process's pending minutes are flushed
 * first, so a reader always sees its own requests. The wallet block goes through the
 * vitals_projection / equity projector from the same stored patronage units /api/equity reads.
 */
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/database.ts';
import { Refusal } from '../../../shared/errors.ts';
import { projectVitals } from '../../../shared/boundaries/projectors/treasury.ts';
import { BUCKETS, LATENCY_BOUNDS_MS, flushVitals } from '../../plugins/vitals.ts';
import { equityRecord } from '../../treasury/views.ts';
import { one, type Counts } from '../../db/rows.ts';
import { sql as fragment } from 'kysely';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The database answers a ping within this many ms, else it reads `degraded`. */
export const DB_DEGRADED_MS = 250;

export interface WindowFigures {
  requests: number;
  client_errors: number;
  server_errors: number;
  latency_sum_ms: number;
  latency_max_ms: number;
  buckets: number[];
  processes: number;
}

/** One histogram position (1-based, `with ordinality`) and its count summed over the minutes. */
type BucketSum = Counts<'n'> & { i: number };

/** Sums every process's minutes in [from, to). */
export async function windowFigures(sql: Sql, from: Date, to: Date): Promise<WindowFigures> {
  const totals = one(
    await sql.query<
      Counts<
        'requests' | 'client_errors' | 'server_errors' | 'latency_sum_ms' | 'latency_max_ms' | 'processes'
      >
    >(
      `select coalesce(sum(requests), 0) as requests, coalesce(sum(client_errors), 0) as client_errors,
            coalesce(sum(server_errors), 0) as server_errors, coalesce(sum(latency_sum_ms), 0) as latency_sum_ms,
            coalesce(max(latency_max_ms), 0) as latency_max_ms, count(distinct process_id) as processes
       from vitals_minutes where minute >= $1 and minute < $2`,
      [from.toISOString(), to.toISOString()],
    ),
  );
  // Raw: an unnest with ordinality over the bucket arrays, summed per position (the minutes' hot read).
  const rows = await sql.query<BucketSum>(
    `select t.i, sum(t.n) as n
       from vitals_minutes v, unnest(v.buckets) with ordinality as t(n, i)
      where v.minute >= $1 and v.minute < $2
      group by t.i`,
    [from.toISOString(), to.toISOString()],
  );
  const buckets = new Array(BUCKETS).fill(0);
  for (const row of rows) {
    const index = row.i - 1;
    if (index >= 0 && index < BUCKETS) buckets[index] = row.n;
  }
  return {
    requests: totals.requests,
    client_errors: totals.client_errors,
    server_errors: totals.server_errors,
    latency_sum_ms: totals.latency_sum_ms,
    latency_max_ms: totals.latency_max_ms,
    buckets,
    processes: totals.processes,
  };
}

/**
 * The q-quantile from the histogram: the upper bound of the bucket where the cumulative count
 * reaches q (so "p95 ≤ this"); the open last bucket reports the window's maximum. null without data.
 */
export function percentile(
  figures: Pick<WindowFigures, 'buckets' | 'latency_max_ms'>,
  q: number,
): number | null {
  const total = figures.buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const target = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < figures.buckets.length; i++) {
    seen += figures.buckets[i]!; // i < buckets.length
    if (seen >= target) {
      // Past the last bound is the open bucket of the slowest: its ceiling is the maximum itself.
      const bound = LATENCY_BOUNDS_MS[i];
      return bound !== undefined
        ? Math.min(bound, round(figures.latency_max_ms))
        : round(figures.latency_max_ms);
    }
  }
  return round(figures.latency_max_ms);
}

const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

/** Plain figures of one window (no ids: only counts and durations). */
export function summarize(figures: WindowFigures, minutes: number) {
  return {
    minutes,
    requests: figures.requests,
    requests_per_minute: round(figures.requests / minutes),
    server_errors: figures.server_errors,
    client_errors: figures.client_errors,
    error_rate: figures.requests ? round(figures.server_errors / figures.requests, 6) : 0,
    latency_ms: {
      p50: percentile(figures, 0.5),
      p95: percentile(figures, 0.95),
      p99: percentile(figures, 0.99),
      mean: figures.requests ? round(figures.latency_sum_ms / figures.requests) : null,
      max: figures.requests ? round(figures.latency_max_ms) : null,
    },
    processes_reporting: figures.processes,
  };
}

export interface DatabaseHealth {
  status: 'ok' | 'degraded' | 'down';
  ping_ms: number | null;
  engine: 'postgresql' | 'embedded';
  migrations_applied: number | null;
}

export async function databaseHealth(ctx: Pick<AppContext, 'db'>): Promise<DatabaseHealth> {
  const engine = ctx.db.embedded ? 'embedded' : 'postgresql';
  const started = performance.now();
  try {
    // The migrator's own table, not an entity: a count through Kysely's typed template.
    const row = one(
      (await fragment<Counts<'n'>>`select count(*) as n from civitas_migrations`.execute(ctx.db.kysely)).rows,
    );
    const ping = round(performance.now() - started);
    return {
      status: ping <= DB_DEGRADED_MS ? 'ok' : 'degraded',
      ping_ms: ping,
      engine,
      migrations_applied: row.n,
    };
  } catch {
    return { status: 'down', ping_ms: null, engine, migrations_applied: null };
  }
}

/** Flushes this process's pending minutes; a failed flush leaves them for the job (never a 500 here). */
export async function flushOwn(ctx: AppContext): Promise<void> {
  try {
    await flushVitals(ctx);
  } catch {
    /* kept in memory for the next flush */
  }
}

/**
 * This process's figures flushed (a reader sees its own requests), then the clock: `now`, and
 * `end`, the end of the current minute, where the windows end (the current minute included).
 */
export async function flushedNow(ctx: AppContext): Promise<{ now: Date; end: Date }> {
  await flushOwn(ctx);
  const now = ctx.clock.now();
  return { now, end: new Date(Math.floor(now.getTime() / MINUTE) * MINUTE + MINUTE) };
}

/** The database's health for the vitals: a 503 (`unavailable`) when it is down. */
async function liveDatabase(ctx: AppContext) {
  const database = await databaseHealth(ctx);
  if (database.status === 'down') throw new Refusal('unavailable');
  return database;
}

/** /api/vitals' headline as /api/organism shows it: the last hour and the database (no day, no wallet). */
export async function vitalsHeadline(ctx: AppContext) {
  const database = await liveDatabase(ctx);
  const { end } = await flushedNow(ctx);
  const lastHour = summarize(await windowFigures(ctx.db, new Date(end.getTime() - HOUR), end), 60);
  return {
    requests_per_minute: lastHour.requests_per_minute,
    error_rate: lastHour.error_rate,
    latency_p95_ms: lastHour.latency_ms.p95,
    database: database.status,
  };
}

/** GET /api/vitals (and the /vitals page): the last hour, the last day, the database. */
export async function vitalsView(ctx: AppContext) {
  const database = await liveDatabase(ctx);
  const { now, end } = await flushedNow(ctx);
  const [hour, day, wallet] = await Promise.all([
    windowFigures(ctx.db, new Date(end.getTime() - HOUR), end),
    windowFigures(ctx.db, new Date(end.getTime() - DAY), end),
    equityRecord(ctx),
  ]);
  const lastHour = summarize(hour, 60);
  // vitals_projection: the whole headline passes through the projector (its wallet block through
  // projectEquity), so no holder id leaves here either.
  const projected = projectVitals({
    as_of: now.toISOString(),
    requests_per_minute: lastHour.requests_per_minute,
    error_rate: lastHour.error_rate,
    latency_p95_ms: lastHour.latency_ms.p95 ?? 0,
    database: database.status,
    wallet,
  });
  return {
    ok: true as const,
    schema: 'civitas.vitals.v1' as const,
    as_of: projected.as_of,
    requests_per_minute: projected.requests_per_minute,
    error_rate: projected.error_rate,
    latency_p95_ms: lastHour.latency_ms.p95,
    database: projected.database,
    wallet: { available: true as const, ...projected.wallet },
    last_hour: lastHour,
    last_day: summarize(day, 24 * 60),
    database_health: database,
    basis:
      'Every answered request is counted by status class and response time, per minute and per API process, and stored in vitals_minutes; ' +
      'requests pages make to the API in process are not counted. Errors are 5xx answers other than 501 (not_implemented) and 503 from a provider switched off here. Percentiles come from a ' +
      'latency histogram and read "at most" the bucket bound. Each process flushes its figures at least every 30 seconds.',
  };
}

/** GET /api/vitals/changes: this day against the day before, this week against the week before. */
export async function vitalsChanges(ctx: AppContext) {
  const { now, end } = await flushedNow(ctx);
  const day = await periodChanges(ctx, 'day', DAY, end);
  const week = await periodChanges(ctx, 'week', 7 * DAY, end);
  const changes = [...day.changes, ...week.changes];
  return {
    ok: true as const,
    schema: 'civitas.vitals-changes.v1' as const,
    as_of: now.toISOString(),
    threshold: NOTABLE_CHANGE,
    changes,
    notable: changes.filter((change) => change.notable),
    windows: { day: day.window, week: week.window },
    rule: `A change is notable when both periods have measurements and the figure moved by at least ${NOTABLE_CHANGE * 100}% (requests: at least 20 requests across both periods).`,
  };
}

/** One period ending at `end` against the period before it: both windows and the three compared figures. */
async function periodChanges(ctx: AppContext, period: 'day' | 'week', length: number, end: Date) {
  const minutes = length / MINUTE;
  const [current, previous] = await Promise.all([
    windowFigures(ctx.db, new Date(end.getTime() - length), end),
    windowFigures(ctx.db, new Date(end.getTime() - 2 * length), new Date(end.getTime() - length)),
  ]);
  const c = summarize(current, minutes);
  const p = summarize(previous, minutes);
  const changes = [
    compare(period, 'requests', p.requests, c.requests, p.requests + c.requests >= 20),
    compare(period, 'error_rate', p.error_rate, c.error_rate, p.requests > 0 && c.requests > 0),
    compare(period, 'latency_p95_ms', p.latency_ms.p95, c.latency_ms.p95, p.requests > 0 && c.requests > 0),
  ];
  return { changes, window: { current: c, previous: p } };
}

export const NOTABLE_CHANGE = 0.25;

function compare(
  period: 'day' | 'week',
  metric: 'requests' | 'error_rate' | 'latency_p95_ms',
  before: number | null,
  after: number | null,
  measured: boolean,
) {
  let change: number | null = null;
  if (before !== null && after !== null) {
    if (before === 0) change = after === 0 ? 0 : null;
    else change = round((after - before) / before, 4);
  }
  const notable =
    measured &&
    before !== null &&
    after !== null &&
    (change === null ? after !== before : Math.abs(change) >= NOTABLE_CHANGE);
  return {
    period,
    metric,
    before,
    after,
    change,
    direction:
      before === null || after === null
        ? ('unmeasured' as const)
        : after > before
          ? ('up' as const)
          : after < before
            ? ('down' as const)
            : ('flat' as const),
    notable,
  };
}
