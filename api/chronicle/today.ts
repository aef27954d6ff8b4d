/**
 * Today at a glance: today's imprints, prophecies coming due, confluences and the anchor to be sealed.
 */
import type { AppContext } from '../context.ts';
import { newestImprints } from '../record/queries.ts';
import { confluenceViews } from '../people/confluences.ts';
import { DAY_MS, ISO, addKind, emptyKinds, n } from './tally.ts';
import { utcDay } from '../../shared/time.ts';
import { sql } from 'kysely';

export async function todayView(ctx: AppContext) {
  const now = ctx.clock.now();
  const date = utcDay(now);
  const [kinds, arrivals, receipts, logDay, newest, due, confluences] = await Promise.all([
    // Today's rows of the kept day tallies (migration 0062), never today's imprints or arrivals.
    ctx.db.kysely
      .selectFrom('imprint_days')
      .select((eb) => ['kind', eb.fn.sum<number>('imprints').as('count')])
      .where('day', '>=', date)
      .groupBy('kind')
      .execute(),
    ctx.db.kysely
      .selectFrom('arrival_days')
      .select([
        sql<number>`coalesce(sum(members) filter (where kind = 'sovereign'), 0)`.as('humans'),
        sql<number>`coalesce(sum(members) filter (where kind = 'agent'), 0)`.as('agents'),
      ])
      .where('day', '>=', date)
      .execute(),
    // A log day's size is its receipts.
    ctx.db.kysely.selectFrom('log_days').select('size as count').where('date', '=', date).execute(),
    ctx.db.kysely
      .selectFrom('log_days')
      .select(['size', sql<string | null>`${sql.raw(ISO('sealed_at'))}`.as('sealed_at')])
      .where('date', '=', date)
      .execute(),
    newestImprints(ctx.db, { limit: 10 }),
    ctx.db.kysely
      .selectFrom('prophecies')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('resolved_at', 'is', null)
      .where('due_at', '<', new Date(now.getTime() + DAY_MS).toISOString())
      .execute(),
    confluenceViews(ctx),
  ]);
  const imprints = emptyKinds();
  for (const k of kinds) addKind(imprints, k.kind, n(k.count));
  const [log] = logDay;
  return {
    ok: true as const,
    schema: 'civitas.today.v1' as const,
    date,
    as_of: now.toISOString(),
    imprints,
    newest: newest,
    arrivals: { humans: n(arrivals[0]?.humans), agents: n(arrivals[0]?.agents) },
    receipts: n(receipts[0]?.count),
    tree: {
      date,
      size: log ? n(log.size) : 0,
      sealed: log ? log.sealed_at !== null : false,
      verify: `/verify/anchor/${date}`,
    },
    prophecies_due_within_24h: n(due[0]?.count),
    confluences,
    links: { chronicle: '/chronicle', almanac: '/almanac', record: '/imprint' },
  };
}
