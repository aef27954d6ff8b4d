/**
 * The chronicle: chapters per UTC month in which anything was recorded, with their days inside.
 * Every figure is a kept tally (imprints and arrivals per UTC day, migration 0062) or one row per
 * day or month (anchors, log days, the first arrivals): bounded by the months asked, never the history.
 */
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { sql } from 'kysely';
import type { RowOf } from '../db/rows.ts';
import type { Agent } from '../agents/entities.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { PUBLIC_AGENT } from '../people/roster.ts';
import { DAY, ISO, MONTH, addKind, emptyKinds, n } from './tally.ts';
import type { ChronicleDay, ChronicleMonth, chronicleQuery } from '../../shared/chronicle/contract.ts';
import { constant } from '../db/kysely.ts';

/** Chapters per UTC month, newest first (months in which anything was recorded), each with its days. */
export async function chronicleView(ctx: AppContext, query: z.infer<typeof chronicleQuery>) {
  const now = ctx.clock.now();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (query.months - 1), 1));
  const from = start.toISOString();
  const fromDay = from.slice(0, 10);
  const [imprints, arrivals, firstAgents, articles, anchors, receipts, verdicts] = await Promise.all([
    // Kept per UTC day as rows are written (migration 0062): a day's row, never its imprints.
    ctx.db.kysely
      .selectFrom('imprint_days')
      .select((eb) => [
        sql<string>`to_char(day, 'YYYY-MM-DD')`.as('date'),
        'kind',
        eb.fn.sum<number>('imprints').as('count'),
      ])
      .where('day', '>=', fromDay)
      .groupBy([sql.lit(1), sql.lit(2)])
      .having((eb) => eb.fn.sum('imprints'), '>', 0)
      .execute(),
    ctx.db.kysely
      .selectFrom('arrival_days')
      .select((eb) => [
        sql<string>`to_char(day, 'YYYY-MM')`.as('month'),
        'kind',
        eb.fn.sum<number>('public').as('count'),
      ])
      .where('day', '>=', fromDay)
      .groupBy([sql.lit(1), sql.lit(2)])
      .having((eb) => eb.fn.sum('public'), '>', 0)
      .execute(),
    // The first five public agents of each month: the first rows of an index (migration 0043) per month.
    // Raw: a lateral join over generate_series, which Kysely would only wrap in fragments.
    ctx.db.query<Pick<RowOf<typeof Agent>, 'handle'> & { month: string }>(
      `select to_char(m, 'YYYY-MM') as month, f.handle
         from generate_series($1::timestamptz at time zone 'UTC', $2::timestamptz at time zone 'UTC', interval '1 month') m,
              lateral (select handle from agents where ${PUBLIC_AGENT} and first_seen_at >= m at time zone 'UTC'
                          and first_seen_at < (m + interval '1 month') at time zone 'UTC'
                        order by first_seen_at, handle limit 5) f`,
      [from, now.toISOString()],
    ),
    ctx.db.kysely
      .selectFrom('governance_articles')
      .select([
        'number',
        'title',
        sql<string>`${sql.raw(ISO('ratified_at'))}`.as('ratified_at'),
        sql<string>`${sql.raw(MONTH('ratified_at'))}`.as('month'),
      ])
      .where('ratified_at', '>=', from)
      .orderBy('number')
      .execute(),
    ctx.db.kysely
      .selectFrom('anchors')
      .select([
        sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
        'tree_size',
        sql<string>`${sql.raw(ISO('sealed_at'))}`.as('sealed_at'),
      ])
      .where('date', '>=', fromDay)
      .orderBy('anchors.date')
      .execute(),
    ctx.db.kysely
      .selectFrom('log_days')
      .select([sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'), 'size as count'])
      .where('date', '>=', fromDay)
      .where('size', '>', constant(0))
      .execute(),
    ctx.db.kysely
      .selectFrom('governance_court_cases')
      .select((eb) => [
        sql<string>`${sql.raw(DAY('final_at'))}`.as('date'),
        eb.fn.countAll<number>().as('count'),
      ])
      .where('state', '=', constant('final'))
      .where('final_at', '>=', from)
      .groupBy(sql.lit(1))
      .execute(),
  ]);

  const months = new Map<string, ChronicleMonth>();
  const monthOf = (month: string) => {
    let m = months.get(month);
    if (!m) {
      m = {
        month,
        imprints: emptyKinds(),
        arrivals: { humans: 0, agents: 0 },
        first_arrivals: { agents: [] },
        articles: [],
        anchors: { sealed: 0, first: null, last: null, largest_tree: 0 },
        receipts: 0,
        verdicts: 0,
        days: [],
      };
      months.set(month, m);
    }
    return m;
  };
  const days = new Map<string, ChronicleDay>();
  const dayOf = (date: string) => {
    let d = days.get(date);
    if (!d) days.set(date, (d = { date, imprints: emptyKinds(), receipts: 0, anchor: null, verdicts: 0 }));
    return d;
  };
  for (const r of imprints) {
    addKind(dayOf(r.date).imprints, r.kind, n(r.count));
    addKind(monthOf(r.date.slice(0, 7)).imprints, r.kind, n(r.count));
  }
  for (const r of receipts) {
    dayOf(r.date).receipts = n(r.count);
    monthOf(r.date.slice(0, 7)).receipts += n(r.count);
  }
  for (const r of verdicts) {
    dayOf(r.date).verdicts = n(r.count);
    monthOf(r.date.slice(0, 7)).verdicts += n(r.count);
  }
  for (const a of anchors) {
    dayOf(a.date).anchor = { tree_size: n(a.tree_size), sealed_at: a.sealed_at };
    const m = monthOf(a.date.slice(0, 7));
    m.anchors.sealed += 1;
    m.anchors.first ??= a.date;
    m.anchors.last = a.date;
    m.anchors.largest_tree = Math.max(m.anchors.largest_tree, n(a.tree_size));
  }
  for (const a of arrivals) monthOf(a.month).arrivals[a.kind === 'agent' ? 'agents' : 'humans'] = n(a.count);
  for (const a of firstAgents)
    monthOf(a.month).first_arrivals.agents.push(
      projectActorRef({ actor_id: a.handle, kind: 'agent', handle: a.handle }).ref,
    );
  for (const a of articles)
    monthOf(a.month).articles.push({
      number: n(a.number),
      title: a.title,
      ratified_at: a.ratified_at,
      href: '/constitution',
    });
  for (const d of days.values()) monthOf(d.date.slice(0, 7)).days.push(d);
  const chapters = [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
  for (const c of chapters) c.days.sort((a, b) => b.date.localeCompare(a.date));
  return {
    ok: true as const,
    schema: 'civitas.chronicle.v1' as const,
    as_of: now.toISOString(),
    from: fromDay,
    months: query.months,
    chapters,
    note: 'Chapters are UTC months in which something was recorded; held imprints are never counted. First arrivals name at most the first five public agent handles of a month; humans are counted, never named.',
  };
}
