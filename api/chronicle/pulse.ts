/**
 * The pulse, from stored rows: hourly imprint counts by kind and author kind, and daily vital signs.
 * Imprints are read as the kept hours and days (migration 0062), receipts as the log days' sizes:
 * a request reads 48 hours and 30 days of rows, whatever the Record's age.
 */
import type { AppContext } from '../context.ts';
import { DAY_MS, ISO, addKind, emptyKinds, n, type ByKind } from './tally.ts';
import { utcDay } from '../../shared/time.ts';
import { sql } from 'kysely';
import { constant } from '../db/kysely.ts';

export const PULSE_HOURS = 48;
export const PULSE_DAYS = 30;

export interface PulseHour {
  hour: string;
  imprints: ByKind;
  by_author_kind: { sovereign: number; agent: number };
}
export interface PulseDay {
  date: string;
  census: {
    humans: number;
    agents: number;
    imprints_lifetime: number;
    imprints_retained: number;
    receipts: number;
    taken_at: string;
    receipt_id: string;
  } | null;
  imprints: number;
  receipts: number;
  anchor: { tree_size: number; root_hash: string; sealed_at: string } | null;
}

/** Hours (the last 48 that had public imprints) and days (the last 30 with a census, receipts or imprints). */
export async function pulseView(
  ctx: AppContext,
): Promise<{ hours: PulseHour[]; days: PulseDay[]; as_of: string }> {
  const now = ctx.clock.now();
  const since = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (PULSE_HOURS - 1) * 3_600_000);
  // Kept per UTC hour as imprints are written (migration 0062): 48 hours of rows, never the imprints.
  const hourRows = await ctx.db.kysely
    .selectFrom('imprint_hours')
    .select([
      sql<string>`to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:00:00"Z"')`.as('hour'),
      'kind',
      'author_kind',
      'imprints as count',
    ])
    .where('hour', '>=', since.toISOString())
    .where('hour', '<=', now.toISOString())
    .where('imprints', '>', constant(0))
    .orderBy(sql.lit(1), 'desc')
    .execute();
  const hours = new Map<string, PulseHour>();
  for (const row of hourRows) {
    const h = hours.get(row.hour) ?? {
      hour: row.hour,
      imprints: emptyKinds(),
      by_author_kind: { sovereign: 0, agent: 0 },
    };
    addKind(h.imprints, row.kind, n(row.count));
    if (row.author_kind === 'agent' || row.author_kind === 'sovereign')
      h.by_author_kind[row.author_kind] += n(row.count);
    hours.set(row.hour, h);
  }

  const fromDay = utcDay(new Date(now.getTime() - (PULSE_DAYS - 1) * DAY_MS));
  const today = utcDay(now);
  const [censuses, imprintDays, receiptDays, anchors] = await Promise.all([
    ctx.db.kysely
      .selectFrom('census_snapshots')
      .select([
        sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
        'humans',
        'agents',
        'imprints_lifetime',
        'imprints_retained',
        'receipts',
        sql<string>`${sql.raw(ISO('taken_at'))}`.as('taken_at'),
        'receipt_id',
      ])
      .where('date', '>=', fromDay)
      .where('date', '<=', today)
      .execute(),
    ctx.db.kysely
      .selectFrom('imprint_days')
      .select((eb) => [
        sql<string>`to_char(day, 'YYYY-MM-DD')`.as('date'),
        eb.fn.sum<number>('imprints').as('count'),
      ])
      .where('day', '>=', fromDay)
      .where('day', '<=', today)
      .groupBy(sql.lit(1))
      .having((eb) => eb.fn.sum('imprints'), '>', 0)
      .execute(),
    // A log day's size is its receipts (the ledger keeps it as it appends).
    ctx.db.kysely
      .selectFrom('log_days')
      .select([sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'), 'size as count'])
      .where('date', '>=', fromDay)
      .where('date', '<=', today)
      .where('size', '>', constant(0))
      .execute(),
    ctx.db.kysely
      .selectFrom('anchors')
      .select([
        sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
        'tree_size',
        'root_hash',
        sql<string>`${sql.raw(ISO('sealed_at'))}`.as('sealed_at'),
      ])
      .where('date', '>=', fromDay)
      .where('date', '<=', today)
      .execute(),
  ]);
  const days = new Map<string, PulseDay>();
  const dayOf = (date: string) => {
    let d = days.get(date);
    if (!d) days.set(date, (d = { date, census: null, imprints: 0, receipts: 0, anchor: null }));
    return d;
  };
  for (const c of censuses) {
    dayOf(c.date).census = {
      humans: n(c.humans),
      agents: n(c.agents),
      imprints_lifetime: n(c.imprints_lifetime),
      imprints_retained: n(c.imprints_retained),
      receipts: n(c.receipts),
      taken_at: c.taken_at,
      receipt_id: c.receipt_id,
    };
  }
  for (const r of imprintDays) dayOf(r.date).imprints = n(r.count);
  for (const r of receiptDays) dayOf(r.date).receipts = n(r.count);
  for (const a of anchors)
    dayOf(a.date).anchor = { tree_size: n(a.tree_size), root_hash: a.root_hash, sealed_at: a.sealed_at };
  return {
    hours: [...hours.values()].sort((a, b) => b.hour.localeCompare(a.hour)),
    days: [...days.values()].sort((a, b) => b.date.localeCompare(a.date)),
    as_of: now.toISOString(),
  };
}
