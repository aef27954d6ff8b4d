/**
 * The listed patrons (GET /api/patrons): who chose to be listed, a page at a time, beside the
 * patron counts by kind the database keeps.
 */
import type { AppContext } from '../context.ts';
import { kAnonymousCount } from '../../shared/boundaries/k-anonymity.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { talliesUnder, keptValue } from '../db/tallies.ts';
import type { RowOf } from '../db/rows.ts';
import { decodeCursor, instantKey, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import type { TreasuryPatron } from './entities.ts';

/**
 * Listed patrons, longest-standing first, a page at a time. The key is when each became a patron,
 * then its page key (migration 0091: random, its own, derived from nothing), so patrons who became
 * patrons in the same moment keep one order and none is skipped at a page's edge; a public tag can
 * repeat and a raw id must not travel in a cursor. Read along treasury_patrons_listed.
 */
export const PATRON_ORDER: KeyOrder = {
  path: '/api/patrons',
  columns: [
    { sql: 'since', type: 'timestamptz' },
    { sql: 'page_key', type: 'text' },
  ],
  order: 'asc',
};

export async function patronsView(ctx: AppContext, query: { limit: number; after?: string }) {
  const cursor = decodeCursor(PATRON_ORDER, query.after);
  const key = keyClause(PATRON_ORDER, cursor, 2);
  const [rows, counts] = await Promise.all([
    // Raw: a keyset page (api/paging.ts); `where listed` is the partial index's predicate.
    ctx.db.query<
      Pick<
        RowOf<typeof TreasuryPatron>,
        'holder_kind' | 'holder_ref' | 'public_ref' | 'since' | 'page_key'
      > & {
        since_key: string;
      }
    >(
      `select holder_kind, holder_ref, public_ref, since, page_key, ${instantKey('since')} as since_key
         from treasury_patrons where listed and ${key.where} order by ${key.orderBy} limit $1`,
      [query.limit + 1, ...key.params],
    ),
    // `treasury_patrons:<holder kind>`, kept by triggers (migration 0086).
    talliesUnder(ctx.db, 'treasury_patrons:'),
  ]);
  const page = pageOf(rows, query.limit, cursor, (row) => [row.since_key, row.page_key]);
  const count = (kind: string) => kAnonymousCount(keptValue(counts, kind));
  return {
    ok: true as const,
    counts: { humans: count('sovereign'), agents: count('agent') },
    listed: page.rows.map((row) => ({
      actor: projectActorRef({
        actor_id: row.holder_ref,
        kind: row.holder_kind,
        tag: row.public_ref,
        handle: row.public_ref,
      }),
      since: new Date(row.since).toISOString(),
    })),
    ...pageFields(PATRON_ORDER, page, query.limit, { limit: query.limit }),
  };
}
