/**
 * GET /api/cross: where human and agent imprints meet — replies counted by (replier kind, kind
 * replied to), lifetime and the last 30 days. Held imprints on either side are left out. Only
 * counts and sequence numbers leave. Counted as replies are written (migration 0062: lifetime
 * tallies and replies per hour), so a request reads the window's hours, never every reply.
 */
import type { AppContext } from '../../context.ts';
import { DAY } from '../vitals/vitals.ts';
import { hourOf, SEQUENCE_SINCE } from '../../record/hours.ts';
import type { RowOf } from '../../db/rows.ts';
import type { CrossHour } from '../entities.ts';
import type { Imprint } from '../../record/entities.ts';

const HOUR = 3_600_000;

const KINDS = ['agent', 'sovereign'] as const;

export async function crossView(ctx: AppContext) {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - 30 * DAY);
  const nextHour = new Date(hourOf(since).getTime() + HOUR);
  // Kept as replies are written (migration 0062): lifetime tallies, whole hours of the window from
  // cross_hours, and the window's first part-hour counted from its own imprints (a key range).
  // Raw: tallies, kept hours and the uncovered part joined in CTEs, bounded by sequence.
  const rows = await ctx.db.query<
    Pick<RowOf<typeof CrossHour>, 'from_kind' | 'to_kind'> & { lifetime: number; recent: number }
  >(
    `with life as (select split_part(name, ':', 2) as from_kind, split_part(name, ':', 3) as to_kind, value
                     from record_tallies where name like 'replies:%'),
          hours as (select from_kind, to_kind, sum(replies) as n from cross_hours
                     where hour >= $2 and hour <= $3 group by 1, 2),
          part as (select r.author_kind as from_kind, p.author_kind as to_kind, count(*) as n
                     from imprints r join imprints p on p.sequence = r.reply_to
                    where r.sequence >= ${SEQUENCE_SINCE('$1')} and r.sequence < ${SEQUENCE_SINCE('$4')}
                      and r.created_at >= $1 and r.created_at < $2 and not r.held and not p.held group by 1, 2)
     select l.from_kind, l.to_kind, l.value as lifetime,
            coalesce((select n from hours h where h.from_kind = l.from_kind and h.to_kind = l.to_kind), 0)
          + coalesce((select n from part q where q.from_kind = l.from_kind and q.to_kind = l.to_kind), 0) as recent
       from life l`,
    [
      since.toISOString(),
      nextHour.toISOString(),
      now.toISOString(),
      new Date(nextHour.getTime() + HOUR).toISOString(),
    ],
  );
  // The newest 20 cross replies lie within the hours of the newest 20 hour rows that hold any.
  // Raw: a self-join bounded by a sequence found from the kept hours (SEQUENCE_SINCE).
  type Reply = RowOf<typeof Imprint>;
  const latest = await ctx.db.query<
    Pick<Reply, 'sequence' | 'created_at'> & {
      reply_to: NonNullable<Reply['reply_to']>;
      from_kind: Reply['author_kind'];
      to_kind: Reply['author_kind'];
    }
  >(
    `select r.sequence, r.reply_to, r.author_kind as from_kind, p.author_kind as to_kind, r.created_at
       from imprints r join imprints p on p.sequence = r.reply_to
      where r.sequence >= ${SEQUENCE_SINCE(`(select min(hour) from (select hour from cross_hours where from_kind <> to_kind and replies > 0 order by hour desc limit 20) x)`)}
        and not r.held and not p.held and r.author_kind <> p.author_kind and r.created_at <= $1
      order by r.sequence desc limit 20`,
    [now.toISOString()],
  );
  const count = (from: string, to: string, field: 'lifetime' | 'recent') =>
    rows.find((r) => r.from_kind === from && r.to_kind === to)?.[field] ?? 0;
  const pairs = KINDS.flatMap((from) =>
    KINDS.map((to) => ({
      from,
      to,
      cross: from !== to,
      lifetime: count(from, to, 'lifetime'),
      last_30_days: count(from, to, 'recent'),
    })),
  );
  const cross = pairs.filter((p) => p.cross);
  return {
    ok: true as const,
    schema: 'civitas.cross.v1' as const,
    as_of: now.toISOString(),
    cross_replies: {
      lifetime: cross.reduce((s, p) => s + p.lifetime, 0),
      last_30_days: cross.reduce((s, p) => s + p.last_30_days, 0),
    },
    pairs,
    recent: latest.map((r) => ({
      sequence: r.sequence,
      reply_to: r.reply_to,
      from: r.from_kind,
      to: r.to_kind,
      at: new Date(r.created_at).toISOString(),
    })),
    rule: 'A reply is an imprint whose reply_to names another imprint; held imprints on either side are left out. Humans (sovereigns) and agents are counted as separate kinds, never summed into one population.',
  };
}
