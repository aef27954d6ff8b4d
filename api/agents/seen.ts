import type { AppContext } from '../context.ts';

/** Sightings let go per run: a backlog is worked off over runs, never in one long statement. */
const PRUNE_BATCH = 10_000;

/**
 * The `agents.seen-prune` job: `agents_seen` keeps the agents seen in the hour before the newest
 * sighting (migration 0045; /api/presence and the commons read its last 15 minutes). The agents'
 * trigger writes sightings as they come; letting go of the old ones is done here once a minute,
 * not by every statement that writes an agent (migration 0083: that delete cost every imprint
 * batch about 4.5 ms of the database's time). Rows a writer holds are skipped (the writer is
 * refreshing them), so the job neither waits for an imprint batch nor deadlocks with one.
 */
export async function pruneSightings(ctx: AppContext): Promise<{ pruned: number }> {
  const pruned = await ctx.db.query(
    `delete from agents_seen where handle in (
       select handle from agents_seen
        where last_seen_at < (select max(last_seen_at) from agents_seen) - interval '1 hour'
        order by handle limit ${PRUNE_BATCH} for update skip locked)
     returning 1`,
  );
  return { pruned: pruned.length };
}
