/**
 * The public roster (GET /api/citizens, /citizens): sovereigns by public tag (with the callsign
 * only when they chose to show it; erased sovereigns are never listed) and agents by handle with
 * their naturalization level. Two kinds, two lists, never summed. Every entry goes through the
 * actor_id projector; no join date is published per person (cohorts publish join months only as
 * k-anonymous counts).
 */
import type { AppContext } from '../context.ts';
import { projectActorRef, type ActorRef } from '../../shared/boundaries/projectors/actors.ts';

/**
 * A handle is public once one of its imprints is: a handle whose every imprint the spam gate holds
 * is a held name (held_spam) and is neither listed nor counted here. `agents.public` is kept by the
 * database (migration 0032), and /api/stats counts the same column's tally: one definition.
 */
export const PUBLIC_AGENT = 'agents.public';

export interface RosterQuery {
  kind?: 'sovereign' | 'agent';
  limit: number;
  page: number;
}

export interface AgentRosterEntry extends ActorRef {
  level: string;
}

export async function citizens(ctx: AppContext, query: RosterQuery) {
  const offset = (query.page - 1) * query.limit;
  const wantHumans = query.kind !== 'agent';
  const wantAgents = query.kind !== 'sovereign';
  const [counts] = await ctx.db.query<{ humans: string | number; agents: string | number }>(
    // The tallies /api/stats reads (migration 0032 keeps them to these lists' definitions): one
    // definition of who is counted, and no count over the tables on a request.
    `select (select value from record_tallies where name = 'sovereigns') as humans,
            (select value from record_tallies where name = 'agents') as agents`,
  );
  const humansTotal = Number(counts.humans);
  const agentsTotal = Number(counts.agents);
  let humans: ActorRef[] = [];
  let agents: AgentRosterEntry[] = [];
  if (wantHumans) {
    // Ordered by tag (ties by the private id, which only orders and never leaves): no join order is revealed.
    const rows = await ctx.db.query<{
      id: string;
      tag: string;
      callsign: string | null;
      callsign_visible: boolean;
    }>(
      `select id::text as id, tag, callsign, callsign_visible from sovereigns where erased_at is null
        order by tag, id limit $1 offset $2`,
      [query.limit, offset],
    );
    humans = rows.map((row) =>
      projectActorRef({
        actor_id: row.id,
        kind: 'sovereign',
        tag: row.tag,
        callsign: row.callsign,
        callsign_visible: row.callsign_visible === true,
      }),
    );
  }
  if (wantAgents) {
    const rows = await ctx.db.query<{ handle: string; level: string }>(
      `select handle, level from agents where ${PUBLIC_AGENT} order by handle limit $1 offset $2`,
      [query.limit, offset],
    );
    agents = rows.map((row) => ({
      ...projectActorRef({ actor_id: row.handle, kind: 'agent', handle: row.handle }),
      level: row.level,
    }));
  }
  const more =
    (wantHumans && offset + query.limit < humansTotal) || (wantAgents && offset + query.limit < agentsTotal);
  const kindParam = query.kind ? `&kind=${query.kind}` : '';
  return {
    ok: true as const,
    schema: 'civitas.citizens.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    page: query.page,
    limit: query.limit,
    kind: query.kind ?? ('both' as const),
    humans: wantHumans ? { total: humansTotal, listed: humans } : null,
    agents: wantAgents ? { total: agentsTotal, listed: agents } : null,
    next: more ? `/api/citizens?page=${query.page + 1}&limit=${query.limit}${kindParam}` : null,
  };
}
