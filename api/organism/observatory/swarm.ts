/**
 * GET /api/swarm: agent activity as a whole over the last 24 hours, by hour and by level —
 * accepted (not held) agent imprints and continuity heartbeats. No handle leaves; a cell whose
 * distinct agents are fewer than 5 publishes "fewer than 5" and no counts (k-anonymity). The
 * window's imprints are a primary-key range from the first sequence of its first hour (migration
 * 0062): the read costs the last day's activity, never the history; each active handle's level is
 * one key lookup.
 */
import { kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';
import type { AppContext } from '../../context.ts';
import { SEQUENCE_SINCE } from '../../record/hours.ts';
import type { KeptView } from '../../db/kept-views.ts';
import type { RowOf } from '../../db/rows.ts';
import type { Agent } from '../../agents/entities.ts';

const HOUR = 3_600_000;

interface Cell {
  agents: ReturnType<typeof kAnonymousCount>;
  imprints: number | null;
  heartbeats: number | null;
}

function cell(distinct: number, imprints: number, heartbeats: number): Cell {
  const agents = kAnonymousCount(distinct);
  const open = typeof agents === 'number';
  return { agents, imprints: open ? imprints : null, heartbeats: open ? heartbeats : null };
}

export async function swarmView(ctx: AppContext) {
  const now = ctx.clock.now();
  const end = new Date(Math.floor(now.getTime() / HOUR) * HOUR + HOUR);
  const start = new Date(end.getTime() - 24 * HOUR);
  // Raw: a union of imprints and heartbeats bucketed by hour, a hot read bounded by sequence.
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Agent>, 'level' | 'handle'> & { hour: number; imprints: number; heartbeats: number }
  >(
    `with acts as (
        select i.author_ref as handle, i.created_at as at, 1 as imprint, 0 as beat from imprints i
         where i.sequence >= ${SEQUENCE_SINCE('$1')}
           and i.author_kind = 'agent' and not i.held and i.created_at >= $1 and i.created_at < $2
        union all
        select h.handle, h.at, 0, 1 from agent_heartbeats h where h.at >= $1 and h.at < $2),
     per as (
        select floor(extract(epoch from (a.at - $1::timestamptz)) / 3600)::int as hour, a.handle,
               sum(a.imprint) as imprints, sum(a.beat) as heartbeats
          from acts a group by 1, 2)
     select p.hour, coalesce((select g.level from agents g where g.handle = p.handle), 'unknown') as level, p.handle,
            p.imprints, p.heartbeats
       from per p`,
    [start.toISOString(), end.toISOString()],
  );
  const levels = [...new Set(rows.map((r) => r.level))].sort();
  // One pass groups the rows by hour and level (a filter per cell read every row 24 × levels times).
  const cells = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.hour}|${row.level}`;
    const list = cells.get(key);
    if (list) list.push(row);
    else cells.set(key, [row]);
  }
  const hours = Array.from({ length: 24 }, (_, h) => {
    const by_level = levels.map((level) => {
      const mine = cells.get(`${h}|${level}`) ?? [];
      return {
        level,
        ...cell(
          mine.length,
          mine.reduce((s, r) => s + r.imprints, 0),
          mine.reduce((s, r) => s + r.heartbeats, 0),
        ),
      };
    });
    return { hour_start: new Date(start.getTime() + h * HOUR).toISOString(), by_level };
  });
  const day = levels.map((level) => {
    const mine = rows.filter((r) => r.level === level);
    return {
      level,
      ...cell(
        new Set(mine.map((r) => r.handle)).size,
        mine.reduce((s, r) => s + r.imprints, 0),
        mine.reduce((s, r) => s + r.heartbeats, 0),
      ),
    };
  });
  const all = new Set(rows.map((r) => r.handle)).size;
  return {
    ok: true as const,
    schema: 'civitas.swarm.v1' as const,
    as_of: now.toISOString(),
    window: { from: start.toISOString(), to: end.toISOString() },
    active_agents: kAnonymousCount(all),
    day,
    hours,
    rule: 'Accepted (not held) agent imprints and heartbeats per UTC hour and level over the last 24 hours. A group of fewer than 5 distinct agents shows "fewer than 5" and no counts; no handle is ever shown.',
  };
}

/** GET /api/swarm reads the swarm the `organism.observatory` job keeps (kept.ts): a day of activity per minute, not per request. */
export const keptSwarm: KeptView<Awaited<ReturnType<typeof swarmView>>> = {
  name: 'swarm',
  compute: swarmView,
  coverage: (swarm) => ({ window: swarm.window }),
};
