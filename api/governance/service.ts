/**
 * The constitution as stored: proposals with their signatures, ratified articles, who is viewing
 * (and whether they may ratify), and the constitution view every surface reads.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import {
  COSIGNS_REQUIRED,
  RATIFICATIONS_REQUIRED,
  projectArticle,
  projectProposal,
  type ArticleRecord,
  type ProposalRecord,
  type SignatureRecord,
} from '../../shared/governance/rules.ts';
import { iso } from '../../shared/time.ts';
import type { RowOf } from '../db/rows.ts';
import type { Row } from '../db/kysely.ts';
import type { Cosign, Proposal } from './entities.ts';

export const ARTICLE_NUMBER_LOCK = 7_212_010; // pg_advisory_xact_lock key: articles numbered one at a time

/** A proposal as PROPOSAL_COLUMNS selects it, with its proposer's tag. */
type ProposalRow = Pick<
  RowOf<typeof Proposal>,
  | 'id'
  | 'title'
  | 'body'
  | 'amends'
  | 'state'
  | 'proposer_id'
  | 'created_at'
  | 'receipt_id'
  | 'cosigned_at'
  | 'cosigned_receipt_id'
  | 'ratified_at'
  | 'article_id'
> & { proposer_tag: Row<'sovereigns'>['tag'] };

/** A cosign or a ratification (the two tables share these columns), with its signer's tag. */
type SignatureRow = Pick<RowOf<typeof Cosign>, 'proposal_id' | 'sovereign_id' | 'at' | 'receipt_id'> &
  Pick<Row<'sovereigns'>, 'tag'>;

const PROPOSAL_COLUMNS = `p.id, p.title, p.body, p.amends, p.state, p.proposer_id, s.tag as proposer_tag, p.created_at, p.receipt_id,
  p.cosigned_at, p.cosigned_receipt_id, p.ratified_at, p.article_id`;

const sovereignActor = (id: string, tag: string) => ({
  actor_id: id,
  kind: 'sovereign' as const,
  tag: tag.trim(),
});

/** Proposals with their signatures, as records for the pure projections. */
export async function loadProposals(
  sql: Sql,
  where: string,
  params: unknown[],
  limit = 500,
): Promise<ProposalRecord[]> {
  const rows = await sql.query<ProposalRow>(
    `select ${PROPOSAL_COLUMNS} from governance_proposals p join sovereigns s on s.id = p.proposer_id
      where ${where} order by p.created_at desc, p.id desc limit ${limit}`,
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
      entry.push({
        actor: sovereignActor(row.sovereign_id, row.tag),
        at: iso(row.at)!,
        receipt_id: row.receipt_id,
      });
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

export async function loadArticles(sql: Sql): Promise<ArticleRecord[]> {
  const rows = await sql.kysely
    .selectFrom('governance_articles')
    .select(['id', 'number', 'proposal_id', 'title', 'body', 'amends', 'ratified_at', 'receipt_id'])
    .orderBy('number')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    proposal_id: r.proposal_id,
    title: r.title,
    text: r.body,
    amends: r.amends,
    ratified_at: iso(r.ratified_at)!,
    receipt_id: r.receipt_id,
  }));
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
  const [row] = await ctx.db.kysely
    .selectFrom('sovereigns')
    .select((eb) => eb('uniqueness_verified_at', 'is not', null).as('verified'))
    .where('id', '=', signedIn.sovereignId)
    .execute();
  return {
    sovereignId: signedIn.sovereignId,
    tag: signedIn.tag,
    governanceWrite: signedIn.scopes.includes('governance:write'),
    uniquenessReceipt: row?.verified === true,
  };
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
    can_ratify:
      viewer.governanceWrite &&
      viewer.uniquenessReceipt &&
      p.state === 'cosigned' &&
      !isProposer &&
      !ratified,
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
    schema: 'civitas.constitution.v1' as const,
    rules: RULES,
    axioms: {
      count: 8,
      href: '/api/axioms',
      note: 'The fixed founding articles; they precede every ratified article.',
    },
    articles: articles.map((a) => projectArticle(a, articles)),
    proposals: open.map((p) => ({
      ...projectProposal(p),
      ...(viewer ? { viewer: viewerOnProposal(viewer, p) } : {}),
    })),
    counts: {
      articles: articles.length,
      proposed: open.filter((p) => p.state === 'proposed').length,
      awaiting_ratification: open.filter((p) => p.state === 'cosigned').length,
    },
    viewer: viewerBlock(viewer),
  };
}
