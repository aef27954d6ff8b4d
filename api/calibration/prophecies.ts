/**
 * Prophecies: graded predictions (a probability) that one of the service's own metrics will be
 * ≥ or < a threshold at a due time. Resolved automatically from stored data as of the due time by
 * the `calibration.resolve` job (one process, under an advisory lock; a resolved prophecy is never
 * resolved again). The service makes its own prophecies at the start of each season (quarter).
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import { sql as fragment } from 'kysely';
import type { Row } from '../db/kysely.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import type { ChangeStatus } from '../ledger/change-status.ts';
import type { Prophecy } from './entities.ts';
import { projectActorRef, type ActorRef } from '../../shared/boundaries/projectors/actors.ts';
import {
  COMPARATOR_SIGN,
  METRIC_MEANING,
  METRICS,
  outcomeOf,
  seasonOf,
  type Comparator,
  type Metric,
} from '../../shared/calibration/scores.ts';

/** pg_try_advisory_xact_lock key of the calibration job. */
export const CALIBRATION_LOCK = 7_212_011;
/** At most this many prophecies are resolved per run (the next run takes the rest). */
export const RESOLVE_BATCH = 500;
export const PROPHECY_ID = /^pro_[0-9A-HJKMNP-TV-Z]{26}$/;
const DAY_MS = 86_400_000;

const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** A timestamp column as ISO text in UTC to the millisecond, in raw SQL. */
export const ISO = (column: string) => `to_char(${column} at time zone 'UTC', ${ISO_FORMAT})`;
/** The same text in a typed Kysely query (`.as(name)` names it). */
export const isoOf = (column: string) =>
  fragment<string>`to_char(${fragment.ref(column)} at time zone 'UTC', ${fragment.raw(ISO_FORMAT)})`;

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

export interface ProphecyInput {
  metric: Metric;
  comparator: Comparator;
  threshold: number;
  probability: number;
  due_at: Date;
}

export async function makeProphecy(ctx: AppContext, me: SignedIn, input: ProphecyInput) {
  const now = ctx.clock.now();
  const id = newId('pro', now);
  return ctx.db.transaction(async (tx) => {
    const receipt = await recordReceipt(tx, {
      step: 'calibration.prophecy',
      subject: `prophecy:${id}`,
      at: now,
    });
    await tx.query(
      `insert into prophecies (id, forecaster_kind, forecaster_id, metric, comparator, threshold, probability, made_at, due_at, receipt_id)
       values ($1, 'sovereign', $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        me.sovereignId,
        input.metric,
        input.comparator,
        input.threshold,
        input.probability,
        now.toISOString(),
        input.due_at.toISOString(),
        receipt.id,
      ],
    );
    return {
      ok: true as const,
      prophecy_id: id,
      statement: statementOf(input.metric, input.comparator, input.threshold, input.due_at.toISOString()),
      probability: input.probability,
      due_at: input.due_at.toISOString(),
      status: 'open' as const,
      receipt_id: receipt.id,
      links: { claim: `/almanac/claim/${id}/card.svg`, prophecies: '/prophecy' },
    };
  });
}

export function statementOf(
  metric: Metric,
  comparator: Comparator,
  threshold: number,
  dueAt: string,
): string {
  return `${metric} ${COMPARATOR_SIGN[comparator]} ${threshold} at ${dueAt.slice(0, 16).replace('T', ' ')} UTC`;
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
      .limit(RESOLVE_BATCH)
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
      .where('forecaster_kind', '=', 'service')
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

/**
 * A forecaster's public face as a left join on sovereigns selects it (`s.tag, s.callsign,
 * s.callsign_visible, s.erased_at is not null as erased`): all null for the service.
 */
export type Face = { [K in 'tag' | 'callsign' | 'callsign_visible']: Row<'sovereigns'>[K] | null } & {
  erased: boolean | null;
};

/** A prophecy as PROPHECY_COLUMNS selects it: times as ISO text, the forecaster's public face from the left join. */
export type ProphecyRow = Pick<
  RowOf<typeof Prophecy>,
  | 'id'
  | 'forecaster_kind'
  | 'metric'
  | 'comparator'
  | 'threshold'
  | 'probability'
  | 'season'
  | 'basis'
  | 'receipt_id'
  | 'observed'
  | 'outcome'
  | 'resolution_receipt_id'
  | 'forecaster_id'
  | 'made_at'
  | 'due_at'
  | 'resolved_at'
> &
  Face;

export const PROPHECY_COLUMNS = `p.id, p.forecaster_kind, p.metric, p.comparator, p.threshold, p.probability, ${ISO('p.made_at')} as made_at,
  ${ISO('p.due_at')} as due_at, p.season, p.basis, p.receipt_id, ${ISO('p.resolved_at')} as resolved_at, p.observed, p.outcome,
  p.resolution_receipt_id, p.forecaster_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased`;
export const PROPHECY_FROM = 'prophecies p left join sovereigns s on s.id = p.forecaster_id';

export type Forecaster = ActorRef | { kind: 'service'; ref: 'service:civitas'; display: 'civitas' };

export function forecasterOf(
  row: { forecaster_kind: string; forecaster_id: string | null } & Face,
): Forecaster {
  if (row.forecaster_kind === 'service')
    return { kind: 'service', ref: 'service:civitas', display: 'civitas' };
  return projectActorRef({
    actor_id: row.forecaster_id ?? '',
    kind: 'sovereign',
    tag: row.erased ? null : row.tag,
    callsign: row.erased ? null : row.callsign,
    callsign_visible: row.callsign_visible === true && !row.erased,
  });
}

/** The one prophecy projection (page, JSON, feeds, cards). */
export function projectProphecy(row: ProphecyRow) {
  const threshold = row.threshold;
  return {
    id: row.id,
    forecaster: forecasterOf(row),
    metric: row.metric,
    metric_meaning: METRIC_MEANING[row.metric],
    comparator: row.comparator,
    threshold,
    statement: statementOf(row.metric, row.comparator, threshold, row.due_at),
    probability: Number(row.probability),
    made_at: row.made_at,
    due_at: row.due_at,
    season: row.season,
    basis: row.basis,
    status: row.resolved_at ? ('resolved' as const) : ('open' as const),
    resolved_at: row.resolved_at,
    observed: row.observed === null ? null : row.observed,
    outcome: row.outcome,
    receipt_id: row.receipt_id,
    resolution_receipt_id: row.resolution_receipt_id,
    links: {
      card: `/almanac/claim/${row.id}/card.svg`,
      answered: row.resolved_at ? `/almanac/claim/${row.id}/answered.svg` : null,
    },
  };
}
export type ProphecyView = ReturnType<typeof projectProphecy>;

export async function prophecyById(sql: Sql, id: string): Promise<ProphecyView | null> {
  if (!PROPHECY_ID.test(id)) return null;
  const [row] = await sql.query<ProphecyRow>(
    `select ${PROPHECY_COLUMNS} from ${PROPHECY_FROM} where p.id = $1`,
    [id],
  );
  return row ? projectProphecy(row) : null;
}

export async function prophecyList(
  sql: Sql,
  which: 'open' | 'resolved',
  limit: number,
): Promise<ProphecyView[]> {
  const rows = await sql.query<ProphecyRow>(
    which === 'open'
      ? `select ${PROPHECY_COLUMNS} from ${PROPHECY_FROM} where p.resolved_at is null order by p.due_at, p.id limit $1`
      : `select ${PROPHECY_COLUMNS} from ${PROPHECY_FROM} where p.resolved_at is not null order by p.resolved_at desc, p.id desc limit $1`,
    [limit],
  );
  return rows.map(projectProphecy);
}

/** Change status of `prophecy:<id>`: open, or resolved with its outcome (registered in api/families.ts). */
export async function prophecyChangeStatus(
  sql: Sql,
  ref: string,
  subject: string,
  now: Date,
): Promise<ChangeStatus | null> {
  const view = await prophecyById(sql, ref);
  if (!view) return null;
  const detail =
    view.status === 'open'
      ? `Open: ${view.statement}, at probability ${view.probability}; resolved automatically at its due time.`
      : `Resolved: ${view.statement} ${view.outcome ? 'came true' : 'did not come true'} (observed ${view.observed}).`;
  return {
    subject,
    status: view.status === 'open' ? 'open' : view.outcome ? 'came_true' : 'did_not_come_true',
    detail,
    as_of: now.toISOString(),
  };
}
