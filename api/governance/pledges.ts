import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { AXIOM_ID, AXIOMS, findAxiom } from '../../shared/governance/axioms.ts';
import { ARTICLE_ID } from '../../shared/governance/rules.ts';
import {
  normalizePrefixed,
  projectPledge,
  type PledgeRecord,
  type ReviewOutcome,
  type Signed,
} from '../../shared/governance/court.ts';
import type { Viewer } from './service.ts';
import { iso } from '../../shared/time.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import type { Row } from '../db/kysely.ts';
import type { Pledge } from './entities.ts';
import { sql as fragment } from 'kysely';

const sovereignActor = (id: string, tag: string) => ({
  actor_id: id,
  kind: 'sovereign' as const,
  tag: tag.trim(),
});
const conflict = (rule: string, hint: string, extra: Record<string, unknown> = {}) =>
  new Refusal('conflict', { rule, ...extra }, hint);
const receiptLink = (id: string) => `/receipt/${id}`;

/** The title of an axiom or ratified article, or a refusal: malformed 400, unknown 404. */
async function articleTitle(sql: Sql, article: string): Promise<string> {
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
  // Raw: counts per article, its backs counted through each article's pledges.
  const perArticle = await ctx.db.query<
    Pick<RowOf<typeof Pledge>, 'article'> & Counts<'live' | 'upheld' | 'lapsed' | 'total' | 'backs'>
  >(
    `select p.article,
            count(*) filter (where p.status <> 'lapsed') as live,
            count(*) filter (where p.status = 'upheld') as upheld,
            count(*) filter (where p.status = 'lapsed') as lapsed,
            count(*) as total,
            (select count(*) from governance_pledge_backs b join governance_pledges q on q.id = b.pledge_id where q.article = p.article) as backs
       from governance_pledges p group by p.article order by count(*) desc, p.article`,
  );
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

export async function makePledge(ctx: AppContext, who: SignedIn, input: { article: string; text?: string }) {
  const now = ctx.clock.now();
  const id = newId('plg', now);
  return ctx.db.transaction(async (tx) => {
    await articleTitle(tx, input.article);
    // Serialize pledges of one sovereign so the one-live-pledge rule answers 409, never a unique violation.
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [
      `governance.pledge:${who.sovereignId}:${input.article}`,
    ]);
    const [live] = await tx.kysely
      .selectFrom('governance_pledges')
      .select('id')
      .where('article', '=', input.article)
      .where('sovereign_id', '=', who.sovereignId)
      .where('status', '<>', 'lapsed')
      .execute();
    if (live)
      throw conflict(
        'already_pledged',
        `You already have a live pledge to ${input.article} (${live.id}); one per article until it lapses.`,
        { article: input.article, pledge: live.id },
      );
    const receipt = await recordReceipt(tx, { step: 'governance.pledge', subject: `pledge:${id}`, at: now });
    await tx.query(
      `insert into governance_pledges (id, article, sovereign_id, body, status, created_at, receipt_id) values ($1, $2, $3, $4, 'active', $5, $6)`,
      [id, input.article, who.sovereignId, input.text ?? null, now.toISOString(), receipt.id],
    );
    const record = one(await loadPledges(tx, 'p.id = $1', [id], 1));
    return {
      ok: true as const,
      pledge: projectPledge(record),
      status: record.status,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}

async function lockPledge(tx: Sql, raw: string): Promise<PledgeRecord> {
  const id = normalizePrefixed('plg_', raw);
  const [row] = await tx.query('select id from governance_pledges where id = $1 for update', [id]);
  if (!row)
    throw new Refusal(
      'not_found',
      { pledge: id },
      `No pledge ${id} is recorded. The codex is at /api/codex/pledges.`,
    );
  const record = one(await loadPledges(tx, 'p.id = $1', [id], 1));
  return record;
}

export async function backPledge(ctx: AppContext, who: SignedIn, pledgeId: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const p = await lockPledge(tx, pledgeId);
    if (p.pledger.actor_id === who.sovereignId)
      throw conflict('pledger_cannot_back', 'You cannot back your own pledge; another sovereign may.', {
        pledge: p.id,
      });
    if (p.backs.some((b) => b.actor.actor_id === who.sovereignId))
      throw conflict(
        'already_backed',
        'You have already backed this pledge; a sovereign backs a pledge once.',
        { pledge: p.id },
      );
    if (p.status === 'lapsed')
      throw conflict('pledge_lapsed', 'This pledge has lapsed; it can no longer be backed.', {
        pledge: p.id,
        status: p.status,
      });
    const receipt = await recordReceipt(tx, {
      step: 'governance.pledge.back',
      subject: `pledge:${p.id}`,
      at: now,
    });
    await tx.query(
      'insert into governance_pledge_backs (pledge_id, sovereign_id, at, receipt_id) values ($1, $2, $3, $4)',
      [p.id, who.sovereignId, now.toISOString(), receipt.id],
    );
    const record = one(await loadPledges(tx, 'p.id = $1', [p.id], 1));
    return {
      ok: true as const,
      pledge: projectPledge(record),
      status: record.status,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}

/** A review by a sovereign carrying a uniqueness receipt: active → upheld | lapsed, upheld → lapsed. */
export async function reviewPledge(
  ctx: AppContext,
  viewer: Viewer,
  pledgeId: string,
  outcome: ReviewOutcome,
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const p = await lockPledge(tx, pledgeId);
    if (p.pledger.actor_id === viewer.sovereignId)
      throw conflict(
        'pledger_cannot_review',
        'You cannot review your own pledge; another sovereign with a uniqueness receipt may.',
        { pledge: p.id },
      );
    if (p.status === 'lapsed')
      throw conflict('pledge_lapsed', 'This pledge has already lapsed; a lapsed pledge is final.', {
        pledge: p.id,
        status: p.status,
      });
    if (p.status === 'upheld' && outcome === 'upheld')
      throw conflict('already_upheld', 'This pledge is already upheld.', { pledge: p.id, status: p.status });
    const receipt = await recordReceipt(tx, {
      step: `governance.pledge.review.${outcome}`,
      subject: `pledge:${p.id}`,
      at: now,
    });
    await tx.query(
      'insert into governance_pledge_reviews (pledge_id, reviewer_id, outcome, at, receipt_id) values ($1, $2, $3, $4, $5)',
      [p.id, viewer.sovereignId, outcome, now.toISOString(), receipt.id],
    );
    await tx.query(
      'update governance_pledges set status = $2, reviewed_at = $3, review_receipt_id = $4 where id = $1',
      [p.id, outcome, now.toISOString(), receipt.id],
    );
    const record = one(await loadPledges(tx, 'p.id = $1', [p.id], 1));
    return {
      ok: true as const,
      pledge: projectPledge(record),
      status: record.status,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}
