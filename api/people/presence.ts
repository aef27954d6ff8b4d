import type { AppContext } from '../context.ts';
import { projectPresence, type PresenceView } from '../../shared/boundaries/projectors/gatherings.ts';
import { currentConfluences } from './confluences.ts';
import { coalescer } from '../../shared/coalesce.ts';
import { one } from '../db/rows.ts';

export const PRESENCE_WINDOW_MINUTES = 15;

/** Who was active in the last 15 minutes, by kind, and the current confluences, through the presence_roster projector. */
export async function presence(ctx: AppContext): Promise<PresenceView> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - PRESENCE_WINDOW_MINUTES * 60_000).toISOString();
  const [rows, confluences] = await Promise.all([
    ctx.db.query<{
      kind: 'sovereign' | 'agent';
      ref: string;
      tag: string | null;
      last_seen_at: Date | string;
    }>(
      `select 'sovereign' as kind, id::text as ref, tag, last_seen_at from sovereigns where last_seen_at >= $1
       union all
       -- agents seen lately are kept apart as they are written (migration 0045): a small table, not every agent
       select 'agent' as kind, handle as ref, null as tag, last_seen_at from agents_seen where last_seen_at >= $1`,
      [since],
    ),
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
    await ctx.db.query<{ humans: number; agents: number }>(
      // The Record's tallies (migration 0022): the same rows count(*) would count, read as two rows.
      `select (select value from record_tallies where name = 'sovereigns') as humans,
            (select value from record_tallies where name = 'agents') as agents`,
    ),
  );
  return { humans: row.humans, agents: row.agents };
}
