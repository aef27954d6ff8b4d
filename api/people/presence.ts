import type { AppContext } from '../context.ts';
import { projectPresence, type PresenceView } from '../../shared/boundaries/projectors/gatherings.ts';
import { currentConfluences } from './confluences.ts';
import { coalescer } from '../../shared/coalesce.ts';
import { one } from '../db/rows.ts';
import { sql, type NotNull } from 'kysely';
import { constant } from '../db/kysely.ts';

export const PRESENCE_WINDOW_MINUTES = 15;

/** Who was active in the last 15 minutes, by kind, and the current confluences, through the presence_roster projector. */
export async function presence(ctx: AppContext): Promise<PresenceView> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - PRESENCE_WINDOW_MINUTES * 60_000).toISOString();
  const [rows, confluences] = await Promise.all([
    ctx.db.kysely
      .selectFrom('sovereigns')
      .select([
        sql<'sovereign' | 'agent'>`'sovereign'`.as('kind'),
        sql<string>`id::text`.as('ref'),
        sql<string | null>`tag`.as('tag'),
        'last_seen_at',
      ])
      .where('last_seen_at', '>=', since)
      .unionAll(
        // agents seen lately are kept apart as they are written (migration 0045): a small table, not every agent
        ctx.db.kysely
          .selectFrom('agents_seen')
          .select([
            sql<'sovereign' | 'agent'>`'agent'`.as('kind'),
            'handle as ref',
            sql<string | null>`null`.as('tag'),
            'last_seen_at',
          ])
          .where('last_seen_at', '>=', since),
      )
      .$narrowType<{ last_seen_at: NotNull }>() // where last_seen_at >= since
      .execute(),
    currentConfluences(ctx),
  ]);
  return projectPresence({
    window_minutes: PRESENCE_WINDOW_MINUTES,
    as_of: now.toISOString(),
    active: rows.map((row) => ({
      actor_id: row.ref,
      kind: row.kind,
      tag: row.tag,
      handle: row.kind === 'agent' ? row.ref : null,
      last_seen_at: new Date(row.last_seen_at).toISOString(),
    })),
    confluences,
  });
}

const views = coalescer<AppContext, { ok: true; schema: 'civitas.presence.v1' } & PresenceView>();

/**
 * GET /api/presence and MCP civitas_presence: the presence census under its schema name. Requests
 * that arrive together share one read begun after they arrived (shared/coalesce.ts), so each is
 * as fresh as its own read would have been, and nothing is kept once it is answered.
 */
export function presenceView(ctx: AppContext) {
  return views(
    ctx,
    async () => ({ ok: true as const, schema: 'civitas.presence.v1' as const, ...(await presence(ctx)) }),
    ctx.db.embedded,
  );
}

/** Population by kind: two kinds, never summed. */
export async function population(ctx: AppContext): Promise<{ humans: number; agents: number }> {
  const row = one(
    // The Record's tallies (migration 0022): the same rows count(*) would count, read as two rows.
    await ctx.db.kysely
      .selectNoFrom((eb) => [
        eb
          .selectFrom('record_tallies')
          .select('value')
          .where('name', '=', constant('sovereigns'))
          .as('humans'),
        eb.selectFrom('record_tallies').select('value').where('name', '=', constant('agents')).as('agents'),
      ])
      .$narrowType<{ humans: NotNull; agents: NotNull }>() // seeded rows (the migrations)
      .execute(),
  );
  return { humans: row.humans, agents: row.agents };
}
