/**
 * The constellation: themes and how they connect.
 * - GET /api/constellation (+ /constellation): the top terms of the retained learnable bodies (not
 *   held, not quarantined; ts_stat as drift and dreaming) and the pairs that share bodies.
 * - GET /dream-constellation (hybrid): the terms of the stored dreams, linked when the same dream
 *   named both, read from what migration 0082 keeps as dreams are stored (`dream_terms`: per term
 *   the dreams that named it, the first and the last; `dream_links`: per pair of terms the dreams
 *   that named both; the tally `dreams`): at most STARS * 2 terms and the pairs among them, never
 *   the dreams themselves. Only words and counts leave, never a body.
 */
import type { AppContext } from '../../context.ts';
import type { RowOf } from '../../db/rows.ts';
import type { DreamLink } from '../entities.ts';
import { dreamsKept } from './dreaming.ts';
import { learnableBodies, termsBetween } from './terms.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../../db/kysely.ts';

export const STARS = 24;
export const MAX_LINKS = 60;

type Link = Pick<RowOf<typeof DreamLink>, 'a' | 'b' | 'shared'>;

/** The strongest links first (then by their terms), at most MAX_LINKS. */
const strongest = (pairs: Iterable<Link>) =>
  [...pairs]
    .sort((x, y) => y.shared - x.shared || x.a.localeCompare(y.a) || x.b.localeCompare(y.b))
    .slice(0, MAX_LINKS);

function links(sets: string[][], keep: Set<string>, min: number) {
  const pairs = new Map<string, Link>();
  for (const set of sets) {
    const terms = [...new Set(set.filter((t) => keep.has(t)))].sort();
    for (let i = 0; i < terms.length; i++)
      for (let j = i + 1; j < terms.length; j++) {
        const a = terms[i]!; // i < j < terms.length
        const b = terms[j]!;
        const key = `${a}\u0000${b}`;
        const pair = pairs.get(key);
        if (pair) pair.shared += 1;
        else pairs.set(key, { a, b, shared: 1 });
      }
  }
  return strongest([...pairs.values()].filter((pair) => pair.shared >= min));
}

export async function constellationView(ctx: AppContext) {
  const now = ctx.clock.now();
  const epoch = new Date(0);
  const [bodies, top] = await Promise.all([
    learnableBodies(ctx.db, epoch, new Date(now.getTime() + 1)),
    termsBetween(ctx.db, epoch, new Date(now.getTime() + 1), STARS),
  ]);
  const words = top.map((t) => t.term);
  const rows = words.length
    ? await ctx.db.kysely
        .selectFrom('imprints')
        .select(
          fragment<
            string[]
          >`array(select unnest(tsvector_to_array(search)) intersect select unnest(${words}::text[]))`.as(
            'terms',
          ),
        )
        .where('body', 'is not', null)
        .where('held', '=', constant(false))
        .where('unattested', '=', constant(false))
        .where('created_at', '<=', now.toISOString())
        .where(fragment<boolean>`tsvector_to_array(search) && ${words}::text[]`)
        .execute()
    : [];
  return {
    ok: true as const,
    schema: 'civitas.constellation.v1' as const,
    as_of: now.toISOString(),
    bodies,
    stars: top.map((t) => ({ term: t.term, bodies: t.documents })),
    links: links(
      rows.map((r) => r.terms),
      new Set(words),
      2,
    ),
    rule: `The ${STARS} terms found in most retained bodies that are neither held nor quarantined; two terms are linked when at least 2 such bodies contain both (at most ${MAX_LINKS} links).`,
  };
}

/**
 * GET /dream-constellation: the STARS * 2 terms most dreams named (ties by the term's code points),
 * and the kept pairs among them: one index read of `dream_terms` and at most (STARS * 2)² / 2 key
 * reads of `dream_links`, whatever the number of dreams.
 */
export async function dreamConstellationView(ctx: AppContext) {
  const [dreams, stars] = await Promise.all([
    dreamsKept(ctx.db),
    ctx.db.kysely
      .selectFrom('dream_terms')
      .select([
        'term',
        'dreams',
        fragment<string>`to_char(first_dreamt, 'YYYY-MM-DD')`.as('first_dreamt'),
        fragment<string>`to_char(last_dreamt, 'YYYY-MM-DD')`.as('last_dreamt'),
      ])
      .orderBy('dreams', 'desc')
      .orderBy(fragment`term collate "C"`)
      .limit(STARS * 2)
      .execute(),
  ]);
  const words = stars.map((s) => s.term);
  const pairs = words.length
    ? await ctx.db.query<Link>(
        `select l.a, l.b, l.shared from unnest($1::text[]) x(a) join unnest($1::text[]) y(b) on x.a < y.b collate "C"
           join dream_links l on l.a = x.a and l.b = y.b`,
        [words],
      )
    : [];
  return {
    ok: true as const,
    schema: 'civitas.dream-constellation.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    dreams,
    stars: stars.map((s) => ({
      term: s.term,
      dreams: Number(s.dreams),
      first_dreamt: s.first_dreamt,
      last_dreamt: s.last_dreamt,
    })),
    links: strongest(pairs.map((p) => ({ a: p.a, b: p.b, shared: Number(p.shared) }))),
    rule: 'Terms of the stored daily dreams (see /dreaming), by how many dreams named them; two terms are linked by the number of dreams that named both.',
  };
}
