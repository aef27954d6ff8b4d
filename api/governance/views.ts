import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import { AXIOMS, findAxiom } from '../../shared/governance/axioms.ts';
import {
  COSIGNS_REQUIRED,
  RATIFICATIONS_REQUIRED,
  lineageOf,
  parseClaim,
  projectArticle,
  projectProposal,
  type ArticleRecord,
  type ProposalRecord,
} from '../../shared/governance/rules.ts';
import { loadArticles, loadProposals, type Viewer } from './service.ts';
import { one, type Counts } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';

const LINEAGE_LIMIT = 200;

function withLineage(p: ProposalRecord, articles: ArticleRecord[]) {
  const article = articles.find((a) => a.proposal_id === p.id) ?? null;
  return { ...projectProposal(p), lineage: lineageOf(p, article) };
}

/** /lineage: every proposal (newest first, up to 200) with its history and the receipt of each step. */
export async function lineageView(ctx: AppContext) {
  const articles = await loadArticles(ctx.db);
  const proposals = await loadProposals(ctx.db, 'true', [], LINEAGE_LIMIT);
  // A tally kept by the proposals' triggers (migration 0069): no count of every proposal.
  const { total } = one(
    await ctx.db.kysely
      .selectFrom('record_tallies')
      .select('value as total')
      .where('name', '=', constant('governance_proposals'))
      .execute(),
  );
  return {
    ok: true as const,
    schema: 'civitas.lineage.v1' as const,
    steps: ['proposed', 'cosign', 'cosigned', 'ratification', 'ratified'],
    note: 'Each step carries the id of the receipt that recorded it; verify any at /verify/{id}. Axioms have no lineage: they were founded, not proposed.',
    total_proposals: total,
    shown: proposals.length,
    proposals: proposals.map((p) => withLineage(p, articles)),
  };
}

/** /provenance: the index of governance claims and where each figure of the constitution comes from. */
export async function provenanceIndex(ctx: AppContext) {
  const articles = await loadArticles(ctx.db);
  const counts = one(
    await ctx.db.query<Counts<'proposals' | 'cosigns' | 'ratifications'>>(
      `select (select value from record_tallies where name = 'governance_proposals') as proposals,
            (select value from record_tallies where name = 'governance_cosigns') as cosigns,
            (select value from record_tallies where name = 'governance_ratifications') as ratifications`,
    ),
  );
  return {
    ok: true as const,
    schema: 'civitas.provenance.v1' as const,
    claims: [
      ...AXIOMS.map((a) => ({
        claim: a.id,
        kind: 'axiom' as const,
        title: a.title,
        source: 'founding text (shared/governance/axioms.ts)',
        href: `/provenance/${a.id}`,
      })),
      ...articles.map((a) => ({
        claim: a.id,
        kind: 'article' as const,
        title: a.title,
        source: `proposal ${a.proposal_id}`,
        href: `/provenance/${a.id}`,
      })),
    ],
    figures: [
      {
        figure: 'axioms',
        value: AXIOMS.length,
        source: 'the fixed founding articles',
        computation: 'the list of axioms',
      },
      {
        figure: 'articles',
        value: articles.length,
        source: 'governance_articles',
        computation: `proposals with ${COSIGNS_REQUIRED} cosigns and ${RATIFICATIONS_REQUIRED} ratifications`,
      },
      {
        figure: 'proposals',
        value: counts.proposals,
        source: 'governance_proposals',
        computation: 'every proposal ever made, each with a governance.propose receipt',
      },
      {
        figure: 'cosigns',
        value: counts.cosigns,
        source: 'governance_cosigns',
        computation: 'one per sovereign per proposal, each with a governance.cosign receipt',
      },
      {
        figure: 'ratifications',
        value: counts.ratifications,
        source: 'governance_ratifications',
        computation: 'one per sovereign per proposal, each with a governance.ratify receipt',
      },
    ],
    note: 'A claim is an axiom, an article or a proposal id: /provenance/{claim}.',
  };
}

/** /provenance/{claim}: where one axiom, article or proposal came from. 400 malformed, 404 unknown. */
export async function provenanceOf(ctx: AppContext, raw: string) {
  const claim = parseClaim(raw);
  if (!claim) {
    throw new Refusal('invalid_request', {
      issues: [
        {
          path: 'claim',
          message:
            'claim must be an article id (article-<n>), a proposal id (prop_…) or an axiom id (axiom-<n>)',
        },
      ],
    });
  }
  if (claim.kind === 'axiom') {
    const axiom = findAxiom(claim.id);
    if (!axiom) throw new Refusal('not_found', { claim: claim.id }, `No axiom ${claim.id}; see /api/axioms.`);
    return {
      ok: true as const,
      schema: 'civitas.provenance-claim.v1' as const,
      claim: claim.id,
      kind: 'axiom' as const,
      axiom: { id: axiom.id, number: axiom.number, title: axiom.title, text: axiom.text },
      origin:
        'A founding axiom: fixed at the founding of civitas, not proposed or ratified, so it has no receipts.',
      proposal: null,
      article: null,
      lineage: [],
    };
  }
  const articles = await loadArticles(ctx.db);
  let proposalId: string;
  if (claim.kind === 'article') {
    const article = articles.find((a) => a.id === claim.id);
    if (!article)
      throw new Refusal(
        'not_found',
        { claim: claim.id },
        `No article ${claim.id} is ratified; see /api/constitution.`,
      );
    proposalId = article.proposal_id;
  } else {
    proposalId = claim.id;
  }
  const [proposal] = await loadProposals(ctx.db, 'p.id = $1', [proposalId], 1);
  if (!proposal)
    throw new Refusal('not_found', { claim: claim.id }, `No proposal ${claim.id} is recorded; see /lineage.`);
  const article = articles.find((a) => a.proposal_id === proposal.id) ?? null;
  const events = lineageOf(proposal, article);
  return {
    ok: true as const,
    schema: 'civitas.provenance-claim.v1' as const,
    claim: claim.id,
    kind: claim.kind,
    origin: article
      ? `Article ${article.number} came from proposal ${proposal.id}: proposed, cosigned by ${proposal.cosigns.length}, ratified by ${proposal.ratifications.length}.`
      : `Proposal ${proposal.id} is ${proposal.state}; it is not (yet) an article.`,
    article: article ? projectArticle(article, articles) : null,
    proposal: projectProposal(proposal),
    lineage: events,
    receipts: events.map((e) => ({
      step: e.step,
      receipt_id: e.receipt_id,
      verify: `/verify/${e.receipt_id}`,
    })),
  };
}

/**
 * /ceremony: how a person gains governance standing (crossing, provider sign-in, the
 * human-uniqueness receipt) and what awaits ratification now. Personalized when signed in.
 */
export async function ceremonyView(ctx: AppContext, viewer: Viewer | null) {
  const pending = await loadProposals(ctx.db, `p.state = 'cosigned'`, []);
  return {
    ok: true as const,
    schema: 'civitas.ceremony.v1' as const,
    steps: [
      {
        step: 'cross',
        href: '/initiate',
        text: 'Cross at /initiate to become a sovereign (or return with your key at /return).',
      },
      {
        step: 'sign_in_with_provider',
        href: '/auth/idp/login',
        text: "Sign in through the identity provider. When it verifies you as a unique human it sends a signed human-uniqueness receipt, which the service checks against the provider's published keys and stores.",
      },
      {
        step: 'propose_or_cosign',
        href: '/constitution',
        text: `With governance:write, propose an article or cosign someone else's proposal; ${COSIGNS_REQUIRED} cosigns open it to ratification.`,
      },
      {
        step: 'ratify',
        href: '/constitution',
        text: `With your stored uniqueness receipt, ratify a cosigned proposal you did not make; ${RATIFICATIONS_REQUIRED} ratifications make it an article. Governance by configuration alone cannot ratify.`,
      },
    ],
    pending: pending.map((p) => {
      const view = projectProposal(p);
      const isProposer = viewer ? p.proposer.actor_id === viewer.sovereignId : false;
      const ratified = viewer ? p.ratifications.some((s) => s.actor.actor_id === viewer.sovereignId) : false;
      return {
        id: view.id,
        title: view.title,
        proposer: view.proposer,
        cosigned_at: view.cosigned_at,
        ratifications: view.ratifications,
        next: view.next,
        ...(viewer
          ? {
              viewer: {
                is_proposer: isProposer,
                ratified,
                can_ratify: viewer.governanceWrite && viewer.uniquenessReceipt && !isProposer && !ratified,
              },
            }
          : {}),
      };
    }),
    viewer: viewer
      ? {
          signed_in: true as const,
          ref: `sovereign:${viewer.tag}`,
          governance_write: viewer.governanceWrite,
          uniqueness_receipt: viewer.uniquenessReceipt,
          may_ratify: viewer.governanceWrite && viewer.uniquenessReceipt,
        }
      : { signed_in: false as const },
  };
}
