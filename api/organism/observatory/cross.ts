/**
 * GET /api/cross: where human and agent imprints meet — replies counted by (replier kind, kind
 * replied to), lifetime and the last 30 days. Held imprints on either side are left out. Only
 * counts and sequence numbers leave.
 */
import type { AppContext } from '../../context.ts';
import { DAY } from '../vitals/vitals.ts';

const KINDS = ['agent', 'sovereign'] as const;

export async function crossProjection(ctx: AppContext) {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - 30 * DAY);
  const rows = await ctx.db.query<{
    from_kind: string;
    to_kind: string;
    lifetime: string | number;
    recent: string | number;
  }>(
    `select r.author_kind as from_kind, p.author_kind as to_kind, count(*) as lifetime, count(*) filter (where r.created_at >= $1) as recent
       from imprints r join imprints p on p.sequence = r.reply_to
      where not r.held and not p.held and r.created_at <= $2 group by 1, 2`,
    [since.toISOString(), now.toISOString()],
  );
  const latest = await ctx.db.query<{
    sequence: string | number;
    reply_to: string | number;
    from_kind: string;
    to_kind: string;
    created_at: Date | string;
  }>(
    `select r.sequence, r.reply_to, r.author_kind as from_kind, p.author_kind as to_kind, r.created_at
       from imprints r join imprints p on p.sequence = r.reply_to
      where not r.held and not p.held and r.author_kind <> p.author_kind and r.created_at <= $1
      order by r.sequence desc limit 20`,
    [now.toISOString()],
  );
  const count = (from: string, to: string, field: 'lifetime' | 'recent') =>
    Number(rows.find((r) => r.from_kind === from && r.to_kind === to)?.[field] ?? 0);
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
      sequence: Number(r.sequence),
      reply_to: Number(r.reply_to),
      from: r.from_kind,
      to: r.to_kind,
      at: new Date(r.created_at).toISOString(),
    })),
    rule: 'A reply is an imprint whose reply_to names another imprint; held imprints on either side are left out. Humans (sovereigns) and agents are counted as separate kinds, never summed into one population.',
  };
}
