/**
 * Terms of retained bodies, counted by PostgreSQL's ts_stat over the stored search vector of
 * imprints that are retained (body kept), not held (held_spam) and not quarantined (unattested).
 * Only words and counts leave this module, never a body.
 */
import type { Sql } from '../../db/database.ts';
import type { Counts } from '../../db/rows.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../../db/kysely.ts';

/** Short function words that say nothing about a theme (the vector uses the `simple` configuration). */
export const STOP_WORDS = [
  'about',
  'after',
  'again',
  'also',
  'been',
  'before',
  'being',
  'could',
  'does',
  'each',
  'from',
  'have',
  'here',
  'into',
  'just',
  'like',
  'more',
  'most',
  'much',
  'only',
  'other',
  'over',
  'same',
  'should',
  'some',
  'such',
  'than',
  'that',
  'their',
  'them',
  'then',
  'there',
  'these',
  'they',
  'this',
  'those',
  'very',
  'were',
  'what',
  'when',
  'where',
  'which',
  'while',
  'will',
  'with',
  'would',
  'your',
  'yours',
  'because',
  'through',
  'under',
  'until',
  'http',
  'https',
];

/**
 * Retained bodies, read through the partial index of stored bodies (`imprints_retained`, the
 * window's 500) and never through the period's rows: the bodies outside the window are gone, so
 * whatever the period, at most the window is read. The sequence bound keeps the planner on that
 * index (a body outside the window is the record_window trial's problem, not a theme).
 */
const RETAINED = `body is not null and sequence > (select value from record_counter where id = 1) - ${RECORD_WINDOW}`;

export interface TermCount {
  term: string;
  documents: number;
  occurrences: number;
}

/** A literal timestamp for the ts_stat query text: only digits, dashes, colons, T, dot and Z. */
function literal(at: Date): string {
  const iso = at.toISOString();
  if (!/^[0-9T:.\-Z]+$/.test(iso)) throw new Error('unexpected timestamp form');
  return `'${iso}'::timestamptz`;
}

/** ts_stat over learnable retained bodies created in [from, to): the top `limit` words by documents. */
/** A row of PostgreSQL's ts_stat: a word, the documents holding it, its occurrences. */
type TsStat = Counts<'ndoc' | 'nentry'> & { word: string };

export async function termsBetween(sql: Sql, from: Date, to: Date, limit: number): Promise<TermCount[]> {
  const inner = `select search from imprints where ${RETAINED} and not held and not unattested and created_at >= ${literal(from)} and created_at < ${literal(to)}`;
  // Raw: ts_stat over a query's text, a PostgreSQL function with its own row, no entity's.
  const rows = await sql.query<TsStat>(
    `select word, ndoc, nentry from ts_stat($1)
      where length(word) between 4 and 40 and word !~ '^[0-9._-]+$' and word <> all($2::text[])
      order by ndoc desc, nentry desc, word limit $3`,
    [inner, STOP_WORDS, limit],
  );
  return rows.map((row) => ({
    term: row.word,
    documents: row.ndoc,
    occurrences: row.nentry,
  }));
}

/**
 * Learnable retained bodies created in [from, to). The window is read first, as a materialized
 * CTE through `imprints_retained`, and the period filtered after: the statement is a named prepared
 * one, and after five runs PostgreSQL's generic plan (a period's selectivity unknown) walked
 * `imprints_created_at` over the whole history instead (1,000,000 rows, 93,000 blocks on the big Record).
 */
export async function learnableBodies(sql: Sql, from: Date, to: Date): Promise<number> {
  const [row] = await sql.kysely
    .with(
      (cte) => cte('retained').materialized(),
      (db) =>
        db
          .selectFrom('imprints')
          .select(['created_at', 'held', 'unattested'])
          .where(fragment<boolean>`${fragment.raw(RETAINED)}`),
    )
    .selectFrom('retained')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('held', '=', constant(false))
    .where('unattested', '=', constant(false))
    .where('created_at', '>=', from.toISOString())
    .where('created_at', '<', to.toISOString())
    .execute();
  return row?.n ?? 0;
}
