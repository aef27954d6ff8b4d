/**
 * The constellation: themes and how they connect.
 * - GET /api/constellation (+ /constellation): the top terms of the retained learnable bodies (not
 *   held, not quarantined; ts_stat as drift and dreaming) and the pairs that share bodies.
 * - GET /dream-constellation (hybrid): the terms of the stored dreams, linked when the same dream
 *   named both. Only words and counts leave, never a body.
 */
import type { AppContext } from '../../context.ts';
import type { DreamTerm } from './dreaming.ts';
import { learnableBodies, termsBetween } from './terms.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../../db/kysely.ts';

export const STARS = 24;
export const MAX_LINKS = 60;

function links(sets: string[][], keep: Set<string>, min: number) {
  const pairs = new Map<string, { a: string; b: string; shared: number }>();
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
  return [...pairs.values()]
    .filter((pair) => pair.shared >= min)
    .sort((x, y) => y.shared - x.shared || x.a.localeCompare(y.a) || x.b.localeCompare(y.b))
    .slice(0, MAX_LINKS);
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

export async function dreamConstellationView(ctx: AppContext) {
  const rows = await ctx.db.kysely
    .selectFrom('dreams')
    .select([
      fragment<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
      fragment<DreamTerm[]>`terms`.as('terms'),
    ])
    .orderBy('date')
    .execute();
  const named = new Map<string, { dreams: number; first: string; last: string }>();
  for (const row of rows)
    for (const t of row.terms) {
      const term = String(t.term);
      const entry = named.get(term) ?? { dreams: 0, first: row.date, last: row.date };
      entry.dreams += 1;
      entry.last = row.date;
      named.set(term, entry);
    }
  const stars = [...named.entries()]
    .map(([term, e]) => ({ term, dreams: e.dreams, first_dreamt: e.first, last_dreamt: e.last }))
    .sort((a, b) => b.dreams - a.dreams || a.term.localeCompare(b.term))
    .slice(0, STARS * 2);
  const keep = new Set(stars.map((s) => s.term));
  return {
    ok: true as const,
    schema: 'civitas.dream-constellation.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    dreams: rows.length,
    stars,
    links: links(
      rows.map((r) => r.terms.map((t) => String(t.term))),
      keep,
      1,
    ),
    rule: 'Terms of the stored daily dreams (see /dreaming), by how many dreams named them; two terms are linked by the number of dreams that named both.',
  };
}
