/**
 * The codex: pledges as stored, read into records for the pure projections (with their backs,
 * reviews and article titles), and the codex view with its counts per article.
 */
import type { AppContext } from '../context.ts';
import { splitKey, talliesUnder, keptValue } from '../db/tallies.ts';
import type { Sql } from '../db/database.ts';
import { Refusal } from '../../shared/errors.ts';
import { AXIOM_ID, AXIOMS, findAxiom } from '../../shared/governance/axioms.ts';
import { ARTICLE_ID } from '../../shared/governance/rules.ts';
import { projectPledge, type PledgeRecord, type Signed } from '../../shared/governance/court.ts';
import { iso } from '../../shared/time.ts';
import type { RowOf } from '../db/rows.ts';
import type { Row } from '../db/kysely.ts';
import type { Pledge } from './entities.ts';
import { sql as fragment } from 'kysely';

const sovereignActor = (id: string, tag: string) => ({
  actor_id: id,
  kind: 'sovereign' as const,
  tag: tag.trim(),
});

/** The title of an axiom or ratified article, or a refusal: malformed 400, unknown 404. */
export async function articleTitle(sql: Sql, article: string): Promise<string> {
  if (AXIOM_ID.test(article)) {
    const axiom = findAxiom(article);
    if (!axiom)
      throw new Refusal(
        'not_found',
        { article },
        `No axiom ${article}; the axioms are listed at /api/axioms.`,
      );
    return axiom.title;
  }
  if (ARTICLE_ID.test(article)) {
    const [row] = await sql.kysely
      .selectFrom('governance_articles')
      .select('title')
      .where('id', '=', article)
      .execute();
    if (!row)
      throw new Refusal(
        'not_found',
        { article },
        `No article ${article} is ratified; the articles are listed at /api/constitution.`,
      );
    return row.title;
  }
  throw new Refusal('invalid_request', {
    issues: [
      { path: 'article', message: 'article must be an axiom id (axiom-<n>) or an article id (article-<n>)' },
    ],
  });
}

async function titles(sql: Sql): Promise<Map<string, string>> {
  const map = new Map<string, string>(AXIOMS.map((a) => [a.id, a.title]));
  for (const row of await sql.kysely.selectFrom('governance_articles').select(['id', 'title']).execute())
    map.set(row.id, row.title);
  return map;
}

export async function loadPledges(
  sql: Sql,
  where: string,
  params: unknown[],
  limit = 200,
): Promise<PledgeRecord[]> {
  // Raw: the caller's where clause (by id, by article or all), with each pledger's tag.
  const rows = await sql.query<
    Pick<
      RowOf<typeof Pledge>,
      'id' | 'article' | 'body' | 'status' | 'sovereign_id' | 'created_at' | 'receipt_id' | 'reviewed_at'
    > &
      Pick<Row<'sovereigns'>, 'tag'>
  >(
    `select p.id, p.article, p.body, p.status, p.sovereign_id, s.tag, p.created_at, p.receipt_id, p.reviewed_at
       from governance_pledges p join sovereigns s on s.id = p.sovereign_id
      where ${where} order by p.created_at desc, p.id desc limit ${limit}`,
    params,
  );
  if (!rows.length) return [];
  const ids = fragment<string[]>`${rows.map((r) => r.id)}::text[]`;
  const backs = await sql.kysely
    .selectFrom('governance_pledge_backs as b')
    .innerJoin('sovereigns as s', 's.id', 'b.sovereign_id')
    .select(['b.pledge_id', 'b.sovereign_id', 's.tag', 'b.at', 'b.receipt_id'])
    .where((eb) => eb('b.pledge_id', '=', eb.fn.any(ids)))
    .orderBy('b.seq')
    .execute();
  const reviews = await sql.kysely
    .selectFrom('governance_pledge_reviews as r')
    .innerJoin('sovereigns as s', 's.id', 'r.reviewer_id')
    .select(['r.pledge_id', 'r.reviewer_id', 's.tag', 'r.outcome', 'r.at', 'r.receipt_id'])
    .where((eb) => eb('r.pledge_id', '=', eb.fn.any(ids)))
    .orderBy('r.seq')
    .execute();
  const names = await titles(sql);
  return rows.map((r) => ({
    id: r.id,
    article: r.article,
    article_title: names.get(r.article) ?? null,
    text: r.body,
    pledger: sovereignActor(r.sovereign_id, r.tag),
    status: r.status,
    created_at: iso(r.created_at)!,
    receipt_id: r.receipt_id,
    reviewed_at: iso(r.reviewed_at),
    backs: backs
      .filter((b) => b.pledge_id === r.id)
      .map((b): Signed => ({
        actor: sovereignActor(b.sovereign_id, b.tag),
        at: iso(b.at)!,
        receipt_id: b.receipt_id,
      })),
    reviews: reviews
      .filter((v) => v.pledge_id === r.id)
      .map((v) => ({
        actor: sovereignActor(v.reviewer_id, v.tag),
        at: iso(v.at)!,
        receipt_id: v.receipt_id,
        outcome: v.outcome,
      })),
  }));
}

const RULES = {
  live_pledges_per_article_per_sovereign: 1,
  pledger_may_back: false,
  pledger_may_review: false,
  reviewer_needs: 'governance:write and a stored external human-uniqueness receipt',
  review_outcomes: ['upheld', 'lapsed'],
  note: 'A lapsed pledge is no longer live; its pledger may pledge to the same article again.',
};

/** GET /api/codex/pledges: the codex — pledges by public ref, and counts per article. */
export async function codexView(ctx: AppContext, filter: { article?: string; limit: number }) {
  if (filter.article) await articleTitle(ctx.db, filter.article);
  const pledges = await loadPledges(
    ctx.db,
    filter.article ? 'p.article = $1' : 'true',
    filter.article ? [filter.article] : [],
    filter.limit,
  );
  // `codex_pledges:<status>:<article>` and `codex_backs:<article>`, kept by triggers (migration 0086).
  const [byStatus, backs] = await Promise.all([
    talliesUnder(ctx.db, 'codex_pledges:'),
    talliesUnder(ctx.db, 'codex_backs:'),
  ]);
  const counted = new Map<string, Record<'active' | 'upheld' | 'lapsed', number>>();
  for (const { key, value } of byStatus) {
    const [first, article] = splitKey(key);
    const status = first as 'active' | 'upheld' | 'lapsed';
    const of = counted.get(article) ?? { active: 0, upheld: 0, lapsed: 0 };
    counted.set(article, { ...of, [status]: of[status] + value });
  }
  const perArticle = [...counted.entries()]
    .map(([article, n]) => ({
      article,
      total: n.active + n.upheld + n.lapsed,
      live: n.active + n.upheld,
      upheld: n.upheld,
      lapsed: n.lapsed,
      backs: keptValue(backs, article),
    }))
    .sort((x, y) => y.total - x.total || (x.article < y.article ? -1 : x.article > y.article ? 1 : 0));
  const names = await titles(ctx.db);
  const per = perArticle.map((r) => ({
    article: r.article,
    title: names.get(r.article) ?? null,
    pledges: r.total,
    live: r.live,
    upheld: r.upheld,
    lapsed: r.lapsed,
    backers: r.backs,
  }));
  return {
    ok: true as const,
    schema: 'civitas.codex-pledges.v1' as const,
    rules: RULES,
    filter: { article: filter.article ?? null, limit: filter.limit },
    counts: {
      pledges: per.reduce((n, r) => n + r.pledges, 0),
      live: per.reduce((n, r) => n + r.live, 0),
      upheld: per.reduce((n, r) => n + r.upheld, 0),
      lapsed: per.reduce((n, r) => n + r.lapsed, 0),
      backs: per.reduce((n, r) => n + r.backers, 0),
    },
    per_article: per,
    pledges: pledges.map(projectPledge),
  };
}
