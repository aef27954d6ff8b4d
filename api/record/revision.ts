import type { AppContext } from '../context.ts';
import { coalescer } from '../../shared/coalesce.ts';
import { one } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';

/**
 * The Record's revision: a number moved by every statement that writes imprint rows (insert,
 * trim, erasure, a release from hold), by the database's own trigger (migration 0022). Pages that
 * read only the Record keep their anonymous render while it stands still (api/site/mount.ts).
 * Reads that arrive together share one begun after they arrived (shared/coalesce.ts).
 */
const reads = coalescer<AppContext, number>();

export function recordRevision(ctx: AppContext): Promise<number> {
  return reads(
    ctx,
    async () =>
      one(
        await ctx.db.kysely
          .selectFrom('record_tallies')
          .select('value')
          .where('name', '=', constant('imprints_revision'))
          .execute(),
      ).value,
    ctx.db.embedded,
  );
}
