import type { AppContext } from '../context.ts';

/** pg_try_advisory_xact_lock key: one process prunes at a time. */
const PRUNE_LOCK = 7_212_075;
/** Rows deleted per table per run: a backlog is worked off over runs, never in one long statement. */
const PRUNE_BATCH = 5_000;

/**
 * The `identity.prune` job: sessions that have expired or were revoked, and form flashes past
 * their lifetime, are deleted (nothing reads them again; a session's acts are kept elsewhere).
 * Sessions expire by the service's clock; flashes by the database's, as api/http.ts writes them.
 */
export async function pruneSessionsAndFlashes(
  ctx: AppContext,
): Promise<{ ran: boolean; sessions: number; flashes: number }> {
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.kysely
      .selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(PRUNE_LOCK)]).as('locked'))
      .execute();
    if (!lock?.locked) return { ran: false, sessions: 0, flashes: 0 };
    const sessions = await tx.query(
      `delete from sessions where id_hash in (
         select id_hash from sessions where expires_at < $1 or revoked_at is not null limit ${PRUNE_BATCH})
       returning 1`,
      [ctx.clock.now().toISOString()],
    );
    const flashes = await tx.query(
      `delete from form_flashes where id in (
         select id from form_flashes where expires_at < now() limit ${PRUNE_BATCH})
       returning 1`,
    );
    return { ran: true, sessions: sessions.length, flashes: flashes.length };
  });
}
