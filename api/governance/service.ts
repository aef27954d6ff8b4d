import { ulid } from 'ulid';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { AXIOM_ID, findAxiom } from '../../shared/governance/axioms.ts';
import { sovereignRefusal } from '../../shared/policy.ts';
import {
  ARTICLE_ID,
  COSIGNS_REQUIRED,
  RATIFICATIONS_REQUIRED,
  normalizeProposalId,
  projectArticle,
  projectProposal,
  type ArticleRecord,
  type ProposalRecord,
  type ProposalState,
  type SignatureRecord,
} from '../../shared/governance/rules.ts';
import { iso } from '../../shared/time.ts';

const ARTICLE_NUMBER_LOCK = 7_212_010; // pg_advisory_xact_lock key: articles numbered one at a time

interface ProposalRow {
  id: string;
  title: string;
  body: string;
  amends: string | null;
  state: ProposalState;
  proposer_id: string;
  proposer_tag: string;
  created_at: Date | string;
  receipt_id: string;
  cosigned_at: Date | string | null;
  cosigned_receipt_id: string | null;
  ratified_at: Date | string | null;
  article_id: string | null;
}

interface SignatureRow {
  proposal_id: string;
  sovereign_id: string;
  tag: string;
  at: Date | string;
  receipt_id: string;
}

const PROPOSAL_COLUMNS = `p.id, p.title, p.body, p.amends, p.state, p.proposer_id, s.tag as proposer_tag, p.created_at, p.receipt_id,
  p.cosigned_at, p.cosigned_receipt_id, p.ratified_at, p.article_id`;

const sovereignActor = (id: string, tag: string) => ({ actor_id: id, kind: 'sovereign' as const, tag: tag.trim() });

/** Proposals with their signatures, as records for the pure projections. */
async function loadProposals(sql: Sql, where: string, params: unknown[], limit = 500): Promise<ProposalRecord[]> {
  const rows = await sql.query<ProposalRow>(
    `select ${PROPOSAL_COLUMNS} from governance_proposals p join sovereigns s on s.id = p.proposer_id
      where ${where} order by p.created_at desc, p.id desc limit ${Number(limit)}`,
    params,
  );
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const signatures = async (table: string) =>
    sql.query<SignatureRow>(
      `select x.proposal_id, x.sovereign_id, s.tag, x.at, x.receipt_id from ${table} x join sovereigns s on s.id = x.sovereign_id
        where x.proposal_id = any($1) order by x.seq`,
      [ids],
    );
  const group = (list: SignatureRow[]) => {
    const map = new Map<string, SignatureRecord[]>();
    for (const row of list) {
      const entry = map.get(row.proposal_id) ?? [];
      entry.push({ actor: sovereignActor(row.sovereign_id, row.tag), at: iso(row.at)!, receipt_id: row.receipt_id });
      map.set(row.proposal_id, entry);
    }
    return map;
  };
  const cosigns = group(await signatures('governance_cosigns'));
  const ratifications = group(await signatures('governance_ratifications'));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    text: r.body,
    amends: r.amends,
    state: r.state,
    proposer: sovereignActor(r.proposer_id, r.proposer_tag),
    created_at: iso(r.created_at)!,
    receipt_id: r.receipt_id,
    cosigned_at: iso(r.cosigned_at),
    cosigned_receipt_id: r.cosigned_receipt_id,
    ratified_at: iso(r.ratified_at),
    article_id: r.article_id,
    cosigns: cosigns.get(r.id) ?? [],
    ratifications: ratifications.get(r.id) ?? [],
  }));
}

async function loadArticles(sql: Sql): Promise<ArticleRecord[]> {
  const rows = await sql.query<{ id: string; number: number | string; proposal_id: string; title: string; body: string; amends: string | null; ratified_at: Date | string; receipt_id: string }>(
    'select id, number, proposal_id, title, body, amends, ratified_at, receipt_id from governance_articles order by number',
  );
  return rows.map((r) => ({ id: r.id, number: Number(r.number), proposal_id: r.proposal_id, title: r.title, text: r.body, amends: r.amends, ratified_at: iso(r.ratified_at)!, receipt_id: r.receipt_id }));
}

/** Facts about the signed-in viewer that decide what they may do (never shown raw). */
export interface Viewer {
  sovereignId: string;
  tag: string;
  governanceWrite: boolean;
  uniquenessReceipt: boolean;
}

export async function viewerOf(ctx: AppContext, signedIn: SignedIn | undefined): Promise<Viewer | null> {
  if (!signedIn) return null;
  const [row] = await ctx.db.query<{ verified: boolean }>('select uniqueness_verified_at is not null as verified from sovereigns where id = $1', [signedIn.sovereignId]);
  return { sovereignId: signedIn.sovereignId, tag: signedIn.tag, governanceWrite: signedIn.scopes.includes('governance:write'), uniquenessReceipt: row?.verified === true };
}

function viewerOnProposal(viewer: Viewer, p: ProposalRecord) {
  const isProposer = p.proposer.actor_id === viewer.sovereignId;
  const cosigned = p.cosigns.some((s) => s.actor.actor_id === viewer.sovereignId);
  const ratified = p.ratifications.some((s) => s.actor.actor_id === viewer.sovereignId);
  return {
    is_proposer: isProposer,
    cosigned,
    ratified,
    can_cosign: viewer.governanceWrite && p.state === 'proposed' && !isProposer && !cosigned,
    can_ratify: viewer.governanceWrite && viewer.uniquenessReceipt && p.state === 'cosigned' && !isProposer && !ratified,
  };
}

function viewerBlock(viewer: Viewer | null) {
  if (!viewer) return { signed_in: false as const };
  return {
    signed_in: true as const,
    ref: `sovereign:${viewer.tag}`,
    governance_write: viewer.governanceWrite,
    uniqueness_receipt: viewer.uniquenessReceipt,
    may_ratify: viewer.governanceWrite && viewer.uniquenessReceipt,
  };
}

const RULES = {
  cosigns_required: COSIGNS_REQUIRED,
  ratifications_required: RATIFICATIONS_REQUIRED,
  proposer_may_cosign: false,
  proposer_may_ratify: false,
  ratifier_needs: 'a stored external human-uniqueness receipt (governance by configuration is not enough)',
};

/**
 * The constitution projection (GET /api/constitution, the /constitution page and the MCP tool
 * civitas_constitution): ratified articles and open proposals with their counts. With a viewer it
 * also says what that viewer may do — so it is personalized and never stored by shared caches.
 */
export async function constitutionView(ctx: AppContext, viewer: Viewer | null) {
  const articles = await loadArticles(ctx.db);
  const open = await loadProposals(ctx.db, `p.state in ('proposed', 'cosigned')`, []);
  return {
    ok: true as const,
    schema: 'civitas.constitution.v1',
    rules: RULES,
    axioms: { count: 8, href: '/api/axioms', note: 'The fixed founding articles; they precede every ratified article.' },
    articles: articles.map((a) => projectArticle(a, articles)),
    proposals: open.map((p) => ({ ...projectProposal(p), ...(viewer ? { viewer: viewerOnProposal(viewer, p) } : {}) })),
    counts: {
      articles: articles.length,
      proposed: open.filter((p) => p.state === 'proposed').length,
      awaiting_ratification: open.filter((p) => p.state === 'cosigned').length,
    },
    viewer: viewerBlock(viewer),
  };
}

async function lockProposal(tx: Sql, rawId: string): Promise<ProposalRecord> {
  const id = normalizeProposalId(rawId);
  const [row] = await tx.query<{ id: string }>('select id from governance_proposals where id = $1 for update', [id]);
  if (!row) throw new Refusal('not_found', { proposal: id }, `No proposal ${id} is recorded. Read open proposals at /api/constitution.`);
  const [record] = await loadProposals(tx, 'p.id = $1', [id], 1);
  return record;
}

export interface ProposeInput {
  title: string;
  text: string;
  amends?: string;
}

async function checkAmends(tx: Sql, amends: string | undefined): Promise<void> {
  if (!amends) return;
  if (AXIOM_ID.test(amends)) {
    if (!findAxiom(amends)) throw new Refusal('not_found', { amends }, `No axiom ${amends}; the axioms are listed at /api/axioms.`);
    return;
  }
  if (ARTICLE_ID.test(amends)) {
    const [row] = await tx.query('select id from governance_articles where id = $1', [amends]);
    if (!row) throw new Refusal('not_found', { amends }, `No article ${amends} is ratified; the articles are listed at /api/constitution.`);
    return;
  }
  throw new Refusal('invalid_request', { issues: [{ path: 'amends', message: 'amends must be an axiom id (axiom-<n>) or an article id (article-<n>)' }] });
}

const receiptLink = (id: string) => `/receipt/${id}`;

export async function propose(ctx: AppContext, who: SignedIn, input: ProposeInput) {
  const now = ctx.clock.now();
  const id = `prop_${ulid(now.getTime())}`;
  return ctx.db.transaction(async (tx) => {
    await checkAmends(tx, input.amends);
    const receipt = await recordReceipt(tx, { step: 'governance.propose', subject: `proposal:${id}`, at: now });
    await tx.query(
      `insert into governance_proposals (id, title, body, amends, proposer_id, state, created_at, receipt_id) values ($1, $2, $3, $4, $5, 'proposed', $6, $7)`,
      [id, input.title, input.text, input.amends ?? null, who.sovereignId, now.toISOString(), receipt.id],
    );
    const [record] = await loadProposals(tx, 'p.id = $1', [id], 1);
    return { ok: true as const, proposal: projectProposal(record), state: record.state, receipt_id: receipt.id, receipt: receiptLink(receipt.id) };
  });
}

const conflict = (rule: string, hint: string, extra: Record<string, unknown> = {}) => new Refusal('conflict', { rule, ...extra }, hint);

export async function cosign(ctx: AppContext, who: SignedIn, proposalId: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const p = await lockProposal(tx, proposalId);
    if (p.proposer.actor_id === who.sovereignId) {
      throw conflict('proposer_cannot_cosign', 'The proposer cannot cosign their own proposal; three other sovereigns must.', { proposal: p.id });
    }
    if (p.cosigns.some((s) => s.actor.actor_id === who.sovereignId)) {
      throw conflict('already_cosigned', 'You have already cosigned this proposal; a sovereign cosigns once.', { proposal: p.id, state: p.state });
    }
    if (p.state !== 'proposed') {
      throw conflict('cosigning_closed', `This proposal is ${p.state}; cosigning is closed once it has ${COSIGNS_REQUIRED} cosigns.`, { proposal: p.id, state: p.state });
    }
    const receipt = await recordReceipt(tx, { step: 'governance.cosign', subject: `proposal:${p.id}`, at: now });
    await tx.query('insert into governance_cosigns (proposal_id, sovereign_id, at, receipt_id) values ($1, $2, $3, $4)', [p.id, who.sovereignId, now.toISOString(), receipt.id]);
    if (p.cosigns.length + 1 >= COSIGNS_REQUIRED) {
      await tx.query(`update governance_proposals set state = 'cosigned', cosigned_at = $2, cosigned_receipt_id = $3 where id = $1`, [p.id, now.toISOString(), receipt.id]);
    }
    const [record] = await loadProposals(tx, 'p.id = $1', [p.id], 1);
    return { ok: true as const, proposal: projectProposal(record), state: record.state, receipt_id: receipt.id, receipt: receiptLink(receipt.id) };
  });
}

/**
 * Ratification needs more than the scope: the ratifier's own stored human-uniqueness receipt
 * (sovereigns.uniqueness_verified_at, set only when the provider's `civitas_uniqueness` JWS
 * verified). governance:write by configuration (CIVITAS_GOVERNORS) does not ratify.
 */
export function requireRatifier(signedIn: SignedIn | undefined, viewer: Viewer | null): asserts viewer is Viewer {
  // The one policy (shared/policy.ts) that /api/policy/evaluate applies too.
  const refusal = sovereignRefusal('ratify', signedIn && viewer ? { scopes: signedIn.scopes, uniquenessReceipt: viewer.uniquenessReceipt } : null);
  if (refusal) throw refusal;
}

export async function ratify(ctx: AppContext, viewer: Viewer, proposalId: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const p = await lockProposal(tx, proposalId);
    if (p.proposer.actor_id === viewer.sovereignId) {
      throw conflict('proposer_cannot_ratify', 'The proposer cannot ratify their own proposal; two other sovereigns must.', { proposal: p.id });
    }
    if (p.ratifications.some((s) => s.actor.actor_id === viewer.sovereignId)) {
      throw conflict('already_ratified', 'You have already ratified this proposal; a sovereign ratifies once.', { proposal: p.id, state: p.state });
    }
    if (p.state === 'proposed') {
      throw conflict('not_cosigned', `This proposal has ${p.cosigns.length} of ${COSIGNS_REQUIRED} cosigns; it can be ratified only once cosigned.`, { proposal: p.id, state: p.state });
    }
    if (p.state === 'ratified') {
      throw conflict('already_ratified', `This proposal is already ratified as ${p.article_id}.`, { proposal: p.id, state: p.state, article_id: p.article_id });
    }
    const receipt = await recordReceipt(tx, { step: 'governance.ratify', subject: `proposal:${p.id}`, at: now });
    await tx.query('insert into governance_ratifications (proposal_id, sovereign_id, at, receipt_id) values ($1, $2, $3, $4)', [p.id, viewer.sovereignId, now.toISOString(), receipt.id]);
    let article: { id: string; receipt_id: string } | null = null;
    if (p.ratifications.length + 1 >= RATIFICATIONS_REQUIRED) {
      await tx.query('select pg_advisory_xact_lock($1)', [ARTICLE_NUMBER_LOCK]);
      const [{ next }] = await tx.query<{ next: number | string }>('select coalesce(max(number), 0) + 1 as next from governance_articles');
      const number = Number(next);
      const articleId = `article-${number}`;
      const enacted = await recordReceipt(tx, { step: 'governance.enact', subject: `article:${articleId}`, at: now });
      await tx.query(
        `insert into governance_articles (id, number, proposal_id, title, body, amends, ratified_at, receipt_id) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [articleId, number, p.id, p.title, p.text, p.amends, now.toISOString(), enacted.id],
      );
      await tx.query(`update governance_proposals set state = 'ratified', ratified_at = $2, article_id = $3 where id = $1`, [p.id, now.toISOString(), articleId]);
      article = { id: articleId, receipt_id: enacted.id };
    }
    const [record] = await loadProposals(tx, 'p.id = $1', [p.id], 1);
    return {
      ok: true as const,
      proposal: projectProposal(record),
      state: record.state,
      article: article ? { id: article.id, receipt_id: article.receipt_id, provenance: `/provenance/${article.id}` } : null,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}

export { loadArticles, loadProposals };
