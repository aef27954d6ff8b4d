/**
 * A sovereign's acts on pledges: making one under an axiom or article (one live pledge per
 * article), backing another's, and reviewing one (upheld or lapsed) with a uniqueness receipt.
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import {
  normalizePrefixed,
  projectPledge,
  type PledgeRecord,
  type ReviewOutcome,
} from '../../shared/governance/court.ts';
import type { Viewer } from './service.ts';
import { one } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import { articleTitle, loadPledges } from './codex.ts';

const conflict = (rule: string, hint: string, extra: Record<string, unknown> = {}) =>
  new Refusal('conflict', { rule, ...extra }, hint);
const receiptLink = (id: string) => `/receipt/${id}`;

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
      .where('status', '<>', constant('lapsed'))
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
