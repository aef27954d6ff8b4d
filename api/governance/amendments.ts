/**
 * Amending the constitution: a proposal, its cosigns, and its ratification by sovereigns carrying
 * an external uniqueness receipt; articles are numbered one at a time.
 */
import { newId } from '../ids.ts';
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
  projectProposal,
  type ProposalRecord,
} from '../../shared/governance/rules.ts';
import { ARTICLE_NUMBER_LOCK, loadProposals, type Viewer } from './service.ts';
import { one, type Counts } from '../db/rows.ts';

async function lockProposal(tx: Sql, rawId: string): Promise<ProposalRecord> {
  const id = normalizeProposalId(rawId);
  const [row] = await tx.kysely
    .selectFrom('governance_proposals')
    .select('id')
    .where('id', '=', id)
    .forUpdate()
    .execute();
  if (!row)
    throw new Refusal(
      'not_found',
      { proposal: id },
      `No proposal ${id} is recorded. Read open proposals at /api/constitution.`,
    );
  const record = one(await loadProposals(tx, 'p.id = $1', [id], 1));
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
    if (!findAxiom(amends))
      throw new Refusal('not_found', { amends }, `No axiom ${amends}; the axioms are listed at /api/axioms.`);
    return;
  }
  if (ARTICLE_ID.test(amends)) {
    const [row] = await tx.query('select id from governance_articles where id = $1', [amends]);
    if (!row)
      throw new Refusal(
        'not_found',
        { amends },
        `No article ${amends} is ratified; the articles are listed at /api/constitution.`,
      );
    return;
  }
  throw new Refusal('invalid_request', {
    issues: [
      { path: 'amends', message: 'amends must be an axiom id (axiom-<n>) or an article id (article-<n>)' },
    ],
  });
}

const receiptLink = (id: string) => `/receipt/${id}`;

export async function propose(ctx: AppContext, who: SignedIn, input: ProposeInput) {
  const now = ctx.clock.now();
  const id = newId('prop', now);
  return ctx.db.transaction(async (tx) => {
    await checkAmends(tx, input.amends);
    const receipt = await recordReceipt(tx, {
      step: 'governance.propose',
      subject: `proposal:${id}`,
      at: now,
    });
    await tx.query(
      `insert into governance_proposals (id, title, body, amends, proposer_id, state, created_at, receipt_id) values ($1, $2, $3, $4, $5, 'proposed', $6, $7)`,
      [id, input.title, input.text, input.amends ?? null, who.sovereignId, now.toISOString(), receipt.id],
    );
    const record = one(await loadProposals(tx, 'p.id = $1', [id], 1));
    return {
      ok: true as const,
      proposal: projectProposal(record),
      state: record.state,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}

const conflict = (rule: string, hint: string, extra: Record<string, unknown> = {}) =>
  new Refusal('conflict', { rule, ...extra }, hint);

export async function cosign(ctx: AppContext, who: SignedIn, proposalId: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const p = await lockProposal(tx, proposalId);
    if (p.proposer.actor_id === who.sovereignId) {
      throw conflict(
        'proposer_cannot_cosign',
        'The proposer cannot cosign their own proposal; three other sovereigns must.',
        { proposal: p.id },
      );
    }
    if (p.cosigns.some((s) => s.actor.actor_id === who.sovereignId)) {
      throw conflict(
        'already_cosigned',
        'You have already cosigned this proposal; a sovereign cosigns once.',
        { proposal: p.id, state: p.state },
      );
    }
    if (p.state !== 'proposed') {
      throw conflict(
        'cosigning_closed',
        `This proposal is ${p.state}; cosigning is closed once it has ${COSIGNS_REQUIRED} cosigns.`,
        { proposal: p.id, state: p.state },
      );
    }
    const receipt = await recordReceipt(tx, {
      step: 'governance.cosign',
      subject: `proposal:${p.id}`,
      at: now,
    });
    await tx.query(
      'insert into governance_cosigns (proposal_id, sovereign_id, at, receipt_id) values ($1, $2, $3, $4)',
      [p.id, who.sovereignId, now.toISOString(), receipt.id],
    );
    if (p.cosigns.length + 1 >= COSIGNS_REQUIRED) {
      await tx.query(
        `update governance_proposals set state = 'cosigned', cosigned_at = $2, cosigned_receipt_id = $3 where id = $1`,
        [p.id, now.toISOString(), receipt.id],
      );
    }
    const record = one(await loadProposals(tx, 'p.id = $1', [p.id], 1));
    return {
      ok: true as const,
      proposal: projectProposal(record),
      state: record.state,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}

/**
 * Ratification needs more than the scope: the ratifier's own stored human-uniqueness receipt
 * (sovereigns.uniqueness_verified_at, set only when the provider's `civitas_uniqueness` JWS
 * verified). governance:write by configuration (CIVITAS_GOVERNORS) does not ratify.
 */
export function requireRatifier(
  signedIn: SignedIn | undefined,
  viewer: Viewer | null,
): asserts viewer is Viewer {
  // The one policy (shared/policy.ts) that /api/policy/evaluate applies too.
  const refusal = sovereignRefusal(
    'ratify',
    signedIn && viewer ? { scopes: signedIn.scopes, uniquenessReceipt: viewer.uniquenessReceipt } : null,
  );
  if (refusal) throw refusal;
}

export async function ratify(ctx: AppContext, viewer: Viewer, proposalId: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const p = await lockProposal(tx, proposalId);
    if (p.proposer.actor_id === viewer.sovereignId) {
      throw conflict(
        'proposer_cannot_ratify',
        'The proposer cannot ratify their own proposal; two other sovereigns must.',
        { proposal: p.id },
      );
    }
    if (p.ratifications.some((s) => s.actor.actor_id === viewer.sovereignId)) {
      throw conflict(
        'already_ratified',
        'You have already ratified this proposal; a sovereign ratifies once.',
        { proposal: p.id, state: p.state },
      );
    }
    if (p.state === 'proposed') {
      throw conflict(
        'not_cosigned',
        `This proposal has ${p.cosigns.length} of ${COSIGNS_REQUIRED} cosigns; it can be ratified only once cosigned.`,
        { proposal: p.id, state: p.state },
      );
    }
    if (p.state === 'ratified') {
      throw conflict('already_ratified', `This proposal is already ratified as ${p.article_id}.`, {
        proposal: p.id,
        state: p.state,
        article_id: p.article_id,
      });
    }
    const receipt = await recordReceipt(tx, {
      step: 'governance.ratify',
      subject: `proposal:${p.id}`,
      at: now,
    });
    await tx.query(
      'insert into governance_ratifications (proposal_id, sovereign_id, at, receipt_id) values ($1, $2, $3, $4)',
      [p.id, viewer.sovereignId, now.toISOString(), receipt.id],
    );
    let article: { id: string; receipt_id: string } | null = null;
    if (p.ratifications.length + 1 >= RATIFICATIONS_REQUIRED) {
      await tx.query('select pg_advisory_xact_lock($1)', [ARTICLE_NUMBER_LOCK]);
      const { next } = one(
        await tx.query<Counts<'next'>>(
          'select coalesce(max(number), 0) + 1 as next from governance_articles',
        ),
      );
      const number = next;
      const articleId = `article-${number}`;
      const enacted = await recordReceipt(tx, {
        step: 'governance.enact',
        subject: `article:${articleId}`,
        at: now,
      });
      await tx.query(
        `insert into governance_articles (id, number, proposal_id, title, body, amends, ratified_at, receipt_id) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [articleId, number, p.id, p.title, p.text, p.amends, now.toISOString(), enacted.id],
      );
      await tx.query(
        `update governance_proposals set state = 'ratified', ratified_at = $2, article_id = $3 where id = $1`,
        [p.id, now.toISOString(), articleId],
      );
      article = { id: articleId, receipt_id: enacted.id };
    }
    const record = one(await loadProposals(tx, 'p.id = $1', [p.id], 1));
    return {
      ok: true as const,
      proposal: projectProposal(record),
      state: record.state,
      article: article
        ? { id: article.id, receipt_id: article.receipt_id, provenance: `/provenance/${article.id}` }
        : null,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}
