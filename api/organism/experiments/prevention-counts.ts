/**
 * The prevention experiment's counts, kept incrementally (migration 0082; docs/scale.md): a run
 * counts only the imprints numbered past its cursor (at most FOLD_MAX, in steps of FOLD_BATCH) into
 * per-day counts (`prevention_days`: accepted, held per rule) and recounts the flood minutes those
 * imprints fall in (`prevention_minutes`: one row per minute in which some author had more than
 * BURST_LIMIT accepted imprints). Days the triggers marked dirty — an imprint already counted was
 * changed, removed, or inserted below the cursor — are counted again from their rows in the same
 * run, so tampering shows at the next run. The window (EXPERIMENT_DAYS UTC days) is counted whole
 * only when nothing is kept yet, the clock went back before the first day kept, or an operator
 * asks (`npm run verify:full`).
 *
 * Every run holds PREVENTION_LOCK for its transaction: the job, a request finding the kept view
 * stale and a study run (POST) count one after the other, never twice the same imprints.
 */
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/database.ts';
import { one, type Counts, type RowOf } from '../../db/rows.ts';
import { BURST_LIMIT } from '../../../shared/record/gate.ts';
import { utcDay } from '../../../shared/time.ts';
import { DAY } from '../vitals/vitals.ts';
import type { PreventionCursor, PreventionDay, PreventionMinute } from '../entities.ts';

export const PREVENTION_LOCK = 7_212_082;
export const EXPERIMENT_DAYS = 30;
/** Imprints one step takes in, and one run at most (a backlog is caught up over several runs). */
export const FOLD_BATCH = 20_000;
const FOLD_MAX = 100_000;

/** What a run did: how many imprints it took in, the days it counted again, where it stands. */
export interface Counted {
  whole: boolean;
  folded: number;
  recounted: string[];
  /** the highest imprint number counted */
  through: number;
  /** the first day the counts hold (the window's first day) */
  from: string;
  /** days counted again whose counts differed from the kept ones (a whole count only) */
  differed: string[];
}

/** The window's first day (its start, UTC) and its last (today), for `now`. */
export function windowOf(now: Date): { since: Date; from: string; to: string } {
  const since = new Date(Math.floor(now.getTime() / DAY) * DAY - (EXPERIMENT_DAYS - 1) * DAY);
  return { since, from: utcDay(since), to: utcDay(now) };
}

/** A group of imprints by day, hold and rule (accepted: not held), as the counting queries return it. */
type DayRow = Counts<'n'> & { day: string; held: boolean; rule: string };
type Minute = Pick<RowOf<typeof PreventionMinute>, 'minute' | 'floods'>;
type KeptDay = Pick<RowOf<typeof PreventionDay>, 'accepted' | 'held'> & { day: string };

const DAY_TEXT = `to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD')`;
const GROUPS = `${DAY_TEXT} as day, i.held, coalesce(i.held_reason, 'other') as rule, count(*) as n`;
/** Imprints of the given UTC days ($1), numbered at most $2: each day read by its time range. */
const ON_DAYS = `unnest($1::date[]) d(day) cross join lateral (
    select sequence, created_at, held, held_reason, author_kind, author_ref from imprints
     where created_at >= (d.day::timestamp at time zone 'UTC') and created_at < ((d.day + 1)::timestamp at time zone 'UTC')
       and sequence <= $2 offset 0) i`;

/** Per-day rows: accepted and held per rule, from the groups of a counting query. */
function byDay(rows: DayRow[]): Map<string, { accepted: number; held: Record<string, number> }> {
  const days = new Map<string, { accepted: number; held: Record<string, number> }>();
  for (const r of rows) {
    const day = days.get(r.day) ?? { accepted: 0, held: {} };
    if (r.held) day.held[r.rule] = (day.held[r.rule] ?? 0) + Number(r.n);
    else day.accepted += Number(r.n);
    days.set(r.day, day);
  }
  return days;
}

const asRecords = (days: ReturnType<typeof byDay>) =>
  JSON.stringify([...days].map(([day, d]) => ({ day, accepted: d.accepted, held: d.held })));

/** Flood minutes among the imprints `where` selects: minute → authors over the burst limit. */
const FLOODS = (from: string, where: string) => `select minute, count(*) as floods from (
    select i.author_kind, i.author_ref, date_trunc('minute', i.created_at) as minute from ${from}
     where not i.held and ${where} group by 1, 2, 3 having count(*) > ${BURST_LIMIT}) f group by minute`;

/** Takes in the imprints numbered first..last: adds their days' counts, recounts their minutes. */
async function fold(tx: Sql, first: number, last: number, since: Date): Promise<void> {
  const rows = await tx.query<DayRow>(
    `select ${GROUPS} from imprints i where i.sequence between $1 and $2 and i.created_at >= $3 group by 1, 2, 3`,
    [first, last, since.toISOString()],
  );
  await tx.query(
    `insert into prevention_days as p (day, accepted, held, dirty)
     select r.day, r.accepted, r.held, false from jsonb_to_recordset($1::jsonb) as r(day date, accepted bigint, held jsonb) order by 1
     on conflict (day) do update set accepted = p.accepted + excluded.accepted,
       held = (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb) from (
                 select k, sum(v::bigint) as n from (select * from jsonb_each_text(p.held) union all select * from jsonb_each_text(excluded.held)) e(k, v)
                  group by k) s)`,
    [asRecords(byDay(rows))],
  );
  // Every minute an accepted imprint of this stretch falls in, counted again up to `last`: each
  // minute's rows read by their time (offset 0 keeps the per-minute index read; pulled up into a
  // join, the planner may read the table whole).
  const touched = `(select distinct date_trunc('minute', created_at) as at from imprints
      where sequence between $1 and $2 and not held and created_at >= $3) t
    cross join lateral (select author_kind, author_ref, created_at, held, sequence from imprints
      where created_at >= t.at and created_at < t.at + interval '1 minute' offset 0) i`;
  await tx.query(
    `with found as (${FLOODS(touched, 'i.sequence <= $2')}),
     kept as (insert into prevention_minutes (minute, floods) select minute, floods from found order by 1
              on conflict (minute) do update set floods = excluded.floods returning minute)
     delete from prevention_minutes p where p.minute in (select date_trunc('minute', created_at) from imprints
        where sequence between $1 and $2 and not held and created_at >= $3) and p.minute not in (select minute from kept)`,
    [first, last, since.toISOString()],
  );
}

/** Counts the given days again from their rows (imprints numbered at most `through`). */
async function recount(tx: Sql, days: string[], through: number): Promise<void> {
  if (days.length === 0) return;
  const counted = byDay(
    await tx.query<DayRow>(`select ${GROUPS} from ${ON_DAYS} group by 1, 2, 3`, [days, through]),
  );
  for (const day of days) if (!counted.has(day)) counted.set(day, { accepted: 0, held: {} });
  await tx.query(
    `insert into prevention_days as p (day, accepted, held, dirty)
     select r.day, r.accepted, r.held, false from jsonb_to_recordset($1::jsonb) as r(day date, accepted bigint, held jsonb) order by 1
     on conflict (day) do update set accepted = excluded.accepted, held = excluded.held`,
    [asRecords(counted)],
  );
  await tx.query(
    `delete from prevention_minutes p using unnest($1::date[]) d(day)
      where p.minute >= (d.day::timestamp at time zone 'UTC') and p.minute < ((d.day + 1)::timestamp at time zone 'UTC')`,
    [days],
  );
  const floods = await tx.query<Minute>(FLOODS(ON_DAYS, 'true'), [days, through]);
  await tx.query(
    `insert into prevention_minutes (minute, floods) select * from unnest($1::timestamptz[], $2::bigint[]) order by 1`,
    [floods.map((f) => f.minute), floods.map((f) => f.floods)],
  );
}

/** Each kept day of the window from `from` as comparable text: its counts and its flood minutes. */
async function keptText(tx: Sql, from: string): Promise<Map<string, string>> {
  const days = await tx.query<KeptDay>(
    `select to_char(day, 'YYYY-MM-DD') as day, accepted, held from prevention_days where day >= $1 order by 1`,
    [from],
  );
  const minutes = await tx.query<Minute>(
    `select to_char(minute at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as minute, floods from prevention_minutes
      where minute >= ($1::date::timestamp at time zone 'UTC') order by 1`,
    [from],
  );
  const text = new Map<string, unknown[]>();
  for (const d of days) {
    const held = Object.entries(d.held).filter(([, n]) => Number(n) !== 0);
    if (Number(d.accepted) !== 0 || held.length > 0) text.set(d.day, [Number(d.accepted), held.sort()]);
  }
  for (const m of minutes)
    text.set(m.minute.slice(0, 10), [
      ...(text.get(m.minute.slice(0, 10)) ?? [0, []]),
      m.minute,
      Number(m.floods),
    ]);
  return new Map([...text].map(([day, t]) => [day, JSON.stringify(t)]));
}

/**
 * One run: under the lock, the imprints past the cursor taken in, the dirty days counted again,
 * days before the window dropped. `whole` counts the window again from its rows (and reports the
 * days whose kept counts differed).
 */
export async function countPrevention(ctx: AppContext, options: { whole?: boolean } = {}): Promise<Counted> {
  const now = ctx.clock.now();
  const { since, from, to } = windowOf(now);
  return ctx.db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [PREVENTION_LOCK]);
    const cursor = one(
      await tx.query<Pick<RowOf<typeof PreventionCursor>, 'next_sequence' | 'counted_from'>>(
        `select next_sequence, to_char(counted_from, 'YYYY-MM-DD') as counted_from from prevention_cursor where id = 1`,
      ),
    );
    const head = Number(
      one(await tx.query<Counts<'value'>>('select value from record_counter where id = 1')).value,
    );
    const whole =
      options.whole === true ||
      cursor.next_sequence === null ||
      cursor.counted_from === null ||
      from < String(cursor.counted_from);
    const step = whole
      ? await countWhole(tx, from, to, head)
      : await countNew(tx, cursor.next_sequence ?? head + 1, head, since, from, to);
    await tx.query('delete from prevention_days where day < $1', [from]);
    await tx.query(`delete from prevention_minutes where minute < $1`, [since.toISOString()]);
    await tx.query('update prevention_cursor set next_sequence = $1, counted_from = $2 where id = 1', [
      step.through + 1,
      from,
    ]);
    return { whole, ...step, from };
  });
}

type Step = Omit<Counted, 'whole' | 'from'>;

/** The window [from, to] counted again from its rows (numbered at most `head`); the days that differed. */
async function countWhole(tx: Sql, from: string, to: string, head: number): Promise<Step> {
  const before = await keptText(tx, from);
  await tx.query('delete from prevention_days');
  await tx.query('delete from prevention_minutes');
  const recounted = daysBetween(from, to);
  await recount(tx, recounted, head);
  const after = await keptText(tx, from);
  const differed = recounted.filter((day) => before.get(day) !== after.get(day));
  return { folded: 0, recounted, through: head, differed };
}

/** The imprints numbered `first`..`head` taken in (at most FOLD_MAX), then the dirty days of the window counted again. */
async function countNew(
  tx: Sql,
  first: number,
  head: number,
  since: Date,
  from: string,
  to: string,
): Promise<Step> {
  let next = first;
  while (next <= head && next - first < FOLD_MAX) {
    const last = Math.min(head, next + FOLD_BATCH - 1);
    await fold(tx, next, last, since);
    next = last + 1;
  }
  const dirty = await tx.query<Pick<KeptDay, 'day'>>(
    `update prevention_days set dirty = false where dirty returning to_char(day, 'YYYY-MM-DD') as day`,
  );
  const recounted = dirty
    .map((d) => d.day)
    .filter((day) => day >= from && day <= to)
    .sort();
  await recount(tx, recounted, next - 1);
  return { folded: next - first, recounted, through: next - 1, differed: [] };
}

function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); utcDay(new Date(at)) <= to; at += DAY)
    days.push(utcDay(new Date(at)));
  return days;
}

/** Per day of a window: imprints accepted, held per rule, and flood minutes. */
export type DayCounts = {
  date: string;
  accepted: number;
  held: Record<string, number>;
  flood_minutes: number;
};
type DayFloods = Pick<KeptDay, 'day'> & Counts<'floods'>;

function daysOf(days: KeptDay[], floods: DayFloods[]): DayCounts[] {
  const byDate = new Map(floods.map((f) => [f.day, Number(f.floods)]));
  return days.map((d) => ({
    date: d.day,
    accepted: Number(d.accepted),
    held: Object.fromEntries(Object.entries(d.held).map(([rule, n]) => [rule, Number(n)])),
    flood_minutes: byDate.get(d.day) ?? 0,
  }));
}

/** The kept counts of the window [from, to] (at most EXPERIMENT_DAYS rows and its flood minutes). */
export async function readCounts(sql: Sql, from: string, to: string): Promise<DayCounts[]> {
  const [days, floods] = await Promise.all([
    sql.query<KeptDay>(
      `select to_char(day, 'YYYY-MM-DD') as day, accepted, held from prevention_days
        where day >= $1 and day <= $2 and (accepted > 0 or held <> '{}'::jsonb) order by day`,
      [from, to],
    ),
    sql.query<DayFloods>(
      `select to_char(minute at time zone 'UTC', 'YYYY-MM-DD') as day, sum(floods) as floods from prevention_minutes
        where minute >= ($1::date::timestamp at time zone 'UTC') and minute < (($2::date + 1)::timestamp at time zone 'UTC') group by 1`,
      [from, to],
    ),
  ]);
  return daysOf(days, floods);
}

/**
 * The same counts from the imprints themselves (the whole window read: the operator's check and
 * the tests' reference, never a request's).
 */
export async function countFromRows(sql: Sql, from: string, to: string): Promise<DayCounts[]> {
  const days = daysBetween(from, to);
  const all = Number.MAX_SAFE_INTEGER;
  const [rows, floods] = await Promise.all([
    sql.query<DayRow>(`select ${GROUPS} from ${ON_DAYS} group by 1, 2, 3`, [days, all]),
    sql.query<DayFloods>(
      `select to_char(minute at time zone 'UTC', 'YYYY-MM-DD') as day, sum(floods) as floods from (${FLOODS(ON_DAYS, 'true')}) m group by 1`,
      [days, all],
    ),
  ]);
  const counted = [...byDay(rows)]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, d]) => ({ day, accepted: d.accepted, held: d.held }));
  return daysOf(counted, floods);
}
