/**
 * Today at a glance: today's imprints, prophecies coming due, confluences and the anchor to be sealed.
 */
import type { AppContext } from '../context.ts';
import { newestImprints } from '../record/queries.ts';
import { confluenceViews } from '../people/confluences.ts';
import { DAY_MS, ISO, addKind, emptyKinds, n } from './tally.ts';
import { utcDay } from '../../shared/time.ts';

export async function todayView(ctx: AppContext) {
  const now = ctx.clock.now();
  const date = utcDay(now);
  const [kinds, arrivals, receipts, logDay, newest, due, confluences] = await Promise.all([
    // Today's rows of the kept day tallies (migration 0062), never today's imprints or arrivals.
    ctx.db.query<{ kind: string; count: number }>(
      `select kind, sum(imprints) as count from imprint_days where day >= $1 group by 1`,
      [date],
    ),
    ctx.db.query<{ humans: number; agents: number }>(
      `select coalesce(sum(members) filter (where kind = 'sovereign'), 0) as humans,
              coalesce(sum(members) filter (where kind = 'agent'), 0) as agents
         from arrival_days where day >= $1`,
      [date],
    ),
    // A log day's size is its receipts.
    ctx.db.query<{ count: number }>(`select size as count from log_days where date = $1`, [date]),
    ctx.db.query<{ size: number; sealed_at: string | null }>(
      `select size, ${ISO('sealed_at')} as sealed_at from log_days where date = $1`,
      [date],
    ),
    newestImprints(ctx.db, { limit: 10 }),
    ctx.db.query<{ count: number }>(
      `select count(*) as count from prophecies where resolved_at is null and due_at < $1`,
      [new Date(now.getTime() + DAY_MS).toISOString()],
    ),
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
