/**
 * The calibration job (`calibration.resolve`): the service's own prophecies at the start of each
 * season (quarter), then every due prophecy resolved from stored data as of its due time. One
 * process at a time, under an advisory lock; a resolved prophecy is never resolved again.
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one, type Counts } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { METRICS, outcomeOf, seasonOf, type Metric } from '../../shared/calibration/scores.ts';
import { isoOf } from './columns.ts';

/** pg_try_advisory_xact_lock key of the calibration job. */
export const CALIBRATION_LOCK = 7_212_011;
/** At most this many prophecies are resolved per run (the next run takes the rest). */
export const RESOLVE_BATCH = 500;
const DAY_MS = 86_400_000;

/** Takes the calibration job's lock for the transaction; false while another process holds it. */
async function calibrationLock(tx: Sql): Promise<boolean> {
  const [lock] = await tx.kysely
    .selectNoFrom((eb) =>
      eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(CALIBRATION_LOCK)]).as('locked'),
    )
    .execute();
  return lock?.locked === true;
}

/** The service's own metrics as they stood at `at` (everything recorded before it). */
export async function metricAsOf(sql: Sql, metric: Metric, at: Date): Promise<number> {
  const query: Record<Metric, string> = {
    humans: 'select count(*) as n from sovereigns where created_at < $1',
    agents: 'select count(*) as n from agents where first_seen_at < $1',
    imprints_lifetime: 'select count(*) as n from imprints where created_at < $1',
    receipts: 'select count(*) as n from receipts where recorded_at < $1',
  };
  // Raw: one count of the same shape per metric, from the table that holds it.
  const row = one(await sql.query<Counts<'n'>>(query[metric], [at.toISOString()]));
  return row.n;
}

export interface ResolveResult {
  ran: boolean;
  resolved: { id: string; observed: number; outcome: boolean }[];
}

/**
 * Resolves every open prophecy whose due time has passed, from the metric as it stood at the due
 * time. Exactly one caller works at a time (advisory lock); the `resolved_at is null` guard makes a
 * repeated run a no-op.
 */
export async function resolveDue(ctx: AppContext): Promise<ResolveResult> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    if (!(await calibrationLock(tx))) return { ran: false, resolved: [] };
    const due = await tx.kysely
      .selectFrom('prophecies')
      .select(['id', 'metric', 'comparator', 'threshold', isoOf('due_at').as('due_at')])
      .where('resolved_at', 'is', null)
      .where('due_at', '<=', now.toISOString())
      .orderBy('due_at')
      .orderBy('id')
      .limit(constant(RESOLVE_BATCH))
      .execute();
    const resolved: ResolveResult['resolved'] = [];
    const cache = new Map<string, number>();
    for (const p of due) {
      const key = `${p.metric}@${p.due_at}`;
      let observed = cache.get(key);
      if (observed === undefined) {
        observed = await metricAsOf(tx, p.metric, new Date(p.due_at));
        cache.set(key, observed);
      }
      const outcome = outcomeOf(p.comparator, observed, p.threshold);
      const receipt = await recordReceipt(tx, {
        step: 'calibration.resolve',
        subject: `prophecy:${p.id}`,
        at: now,
      });
      const [row] = await tx.query(
        `update prophecies set resolved_at = $2, observed = $3, outcome = $4, resolution_receipt_id = $5 where id = $1 and resolved_at is null returning id`,
        [p.id, now.toISOString(), observed, outcome, receipt.id],
      );
      if (!row) throw new Error('prophecy resolved concurrently under the lock');
      resolved.push({ id: p.id, observed, outcome });
    }
    return { ran: true, resolved };
  });
}

/**
 * The service's own prophecies for the current season (a calendar quarter): for each metric,
 * "at season end the metric will be ≥ current + half the growth its last-90-day trend projects",
 * at probability 0.7 when the trend grows, else "≥ current + 1" at 0.3. Recorded once per season
 * (unique index), and only while at least a day of the season remains.
 */
export async function recordSeasonPredictions(
  ctx: AppContext,
): Promise<{ ran: boolean; season: string; made: string[] }> {
  const now = ctx.clock.now();
  const { season, end } = seasonOf(now);
  if (end.getTime() - now.getTime() < DAY_MS) return { ran: false, season, made: [] };
  return ctx.db.transaction(async (tx) => {
    if (!(await calibrationLock(tx))) return { ran: false, season, made: [] };
    const existing = await tx.kysely
      .selectFrom('prophecies')
      .select('metric')
      .where('forecaster_kind', '=', constant('service'))
      .where('season', '=', season)
      .execute();
    const have = new Set(existing.map((r) => r.metric));
    const made: string[] = [];
    const daysLeft = (end.getTime() - now.getTime()) / DAY_MS;
    for (const metric of METRICS) {
      if (have.has(metric)) continue;
      const current = await metricAsOf(tx, metric, now);
      const before = await metricAsOf(tx, metric, new Date(now.getTime() - 90 * DAY_MS));
      const projected = ((current - before) / 90) * daysLeft;
      const growing = projected >= 1;
      const threshold = growing ? current + Math.max(1, Math.ceil(projected / 2)) : current + 1;
      const probability = growing ? 0.7 : 0.3;
      const basis = growing
        ? `${metric} was ${current} at ${now.toISOString()} and grew by ${current - before} in the last 90 days; that trend projects +${Math.round(projected)} by season end. The service gives 70% to at least half of it (${threshold}).`
        : `${metric} was ${current} at ${now.toISOString()} and did not grow in the last 90 days; the service gives 30% to any growth (${threshold}) by season end.`;
      const id = newId('pro', now);
      const receipt = await recordReceipt(tx, {
        step: 'calibration.season',
        subject: `prophecy:${id}`,
        at: now,
      });
      await tx.query(
        `insert into prophecies (id, forecaster_kind, forecaster_id, metric, comparator, threshold, probability, made_at, due_at, season, basis, receipt_id)
         values ($1, 'service', null, $2, 'gte', $3, $4, $5, $6, $7, $8, $9)`,
        [id, metric, threshold, probability, now.toISOString(), end.toISOString(), season, basis, receipt.id],
      );
      made.push(id);
    }
    return { ran: true, season, made };
  });
}

/** The calibration job: the season's own prophecies, then every due resolution. */
export async function runCalibrationJob(ctx: AppContext) {
  const season = await recordSeasonPredictions(ctx);
  const resolved = await resolveDue(ctx);
  return { season, resolved };
}
