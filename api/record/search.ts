/**
 * Search (GET /search as JSON, its page, MCP civitas_search: one projection). PostgreSQL full-text
 * search over retained, public bodies under the `english` configuration, so "receipts" finds what
 * "receipt" finds. The vector is generated from the body column (migration 0067) and read through
 * its GIN index, so a body that left the window is not findable and no request computes a vector.
 * Attested imprints rank before unattested ones (unattested imprints are kept out of search
 * ranking, not out of sight). Results page by key (api/paging.ts); the answer says what was
 * searched: the language, the stemmed terms, the query PostgreSQL ran and the scope.
 */
import type { Sql } from '../db/database.ts';
import { projectImprint, RECORD_WINDOW, type PublicImprint } from '../../shared/record/imprint.ts';
import { one, type RowOf } from '../db/rows.ts';
import type { Imprint } from './entities.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { sql as fragment } from 'kysely';

const PUBLIC_COLUMNS =
  'sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id';
type ImprintRow = Omit<RowOf<typeof Imprint>, 'search' | 'search_english'>;

/** The text search configuration of search: English stems and stop words. */
export const SEARCH_LANGUAGE = 'english';
const SCOPE = `retained imprint bodies (the newest ${RECORD_WINDOW}; held spam never)`;

/**
 * Attested first, then by rank (to four places, as shown), then newest: one order, written
 * ascending so the key compares as one row.
 */
export const SEARCH_ORDER: KeyOrder = {
  path: '/search',
  columns: [
    { sql: 'unattested::int', type: 'bigint' },
    { sql: '-rank4', type: 'bigint' },
    { sql: '-sequence', type: 'bigint' },
  ],
  order: 'asc',
};

type Found = PublicImprint & { rank: number };

/** The lexemes of a tsquery's text (`'receipt' & !'fox'`), each once, in order. */
export function lexemesOf(query: string): string[] {
  // Group 1 is not optional: every match carries it.
  const terms = [...query.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
  return [...new Set(terms)];
}

async function searchRows(sql: Sql, q: string, limit: number, after: string | undefined) {
  const cursor = decodeCursor(SEARCH_ORDER, after);
  const key = keyClause(SEARCH_ORDER, cursor, 3);
  const rows = await sql.query<ImprintRow & { rank4: number; total: number }>(
    `with query as (select websearch_to_tsquery('${SEARCH_LANGUAGE}', $1) as q),
     found as (
       select ${PUBLIC_COLUMNS}, round(ts_rank(search_english, query.q) * 10000)::bigint as rank4
         from imprints, query
        where held = false and body is not null and search_english @@ query.q
     )
     select found.*, (select count(*) from found) as total from found
      where ${key.where} order by ${key.orderBy} limit $2`,
    [q, limit + 1, ...key.params],
  );
  const results = rows.flatMap((row) => {
    const imprint = projectImprint(row);
    return imprint ? [{ ...imprint, rank: row.rank4 / 10_000 }] : [];
  });
  const page = pageOf(results, limit, cursor, (r: Found) => [
    r.unattested ? 1 : 0,
    -Math.round(r.rank * 10_000),
    -r.sequence,
  ]);
  return { page, total: rows[0]?.total ?? 0 };
}

/** GET /search as JSON and MCP civitas_search. */
export async function searchView(db: Sql, query: { q?: string; limit: number; after?: string }) {
  const q = query.q ?? '';
  const parsed = one(
    await db.kysely
      .selectNoFrom(
        fragment<string>`websearch_to_tsquery(${fragment.lit(SEARCH_LANGUAGE)}, ${q})::text`.as('query'),
      )
      .execute(),
  );
  const searched = {
    language: SEARCH_LANGUAGE,
    terms: lexemesOf(parsed.query),
    query: parsed.query,
    scope: SCOPE,
  };
  const found = searched.terms.length
    ? await searchRows(db, q, query.limit, query.after)
    : { page: { rows: [], next: null, previous: null }, total: 0 };
  const links = { q, limit: query.limit };
  return {
    ok: true as const,
    q,
    total: found.total,
    results: found.page.rows,
    scope: SCOPE,
    searched,
    ...pageFields(SEARCH_ORDER, found.page, query.limit, links),
  };
}
