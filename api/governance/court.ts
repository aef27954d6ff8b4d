/**
 * The court's two acts: opening a case against a steward's triage decision, and a juror's
 * signature, the third concurring one making the verdict final and setting a precedent.
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import { one, type Counts } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import {
  JURORS_REQUIRED,
  holdingOf,
  normalizePrefixed,
  projectCase,
  type Verdict,
} from '../../shared/governance/court.ts';
import { loadCases } from './cases.ts';

const PRECEDENT_NUMBER_LOCK = 7_212_014; // pg_advisory_xact_lock key: precedents numbered one at a time
const conflict = (rule: string, hint: string, extra: Record<string, unknown> = {}) =>
  new Refusal('conflict', { rule, ...extra }, hint);
const receiptLink = (id: string) => `/receipt/${id}`;

/** Opens a case against the latest steward triage decision on an imprint. */
export async function openCase(ctx: AppContext, who: SignedIn, input: { sequence: number; reason?: string }) {
  const now = ctx.clock.now();
  const id = newId('case', now);
  return ctx.db.transaction(async (tx) => {
    const [imprint] = await tx.query('select sequence from imprints where sequence = $1', [input.sequence]);
    if (!imprint)
      throw new Refusal(
        'not_found',
        { target: `imprint:${input.sequence}` },
        `No imprint #${input.sequence} is recorded.`,
      );
    const [decision] = await tx.kysely
      .selectFrom('steward_actions')
      .select(['id', 'action'])
      .where('sequence', '=', input.sequence)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(constant(1))
      .forUpdate()
      .execute();
    if (!decision) {
      throw conflict(
        'not_triaged',
        `No steward has triaged imprint #${input.sequence}; a court case disputes a triage decision.`,
        { target: `imprint:${input.sequence}` },
      );
    }
    const [existing] = await tx.kysely
      .selectFrom('governance_court_cases')
      .select('id')
      .where('triage_action_id', '=', decision.id)
      .execute();
    if (existing) {
      throw conflict(
        'already_disputed',
        `The latest triage decision on imprint #${input.sequence} is already before the court as ${existing.id}.`,
        { target: `imprint:${input.sequence}`, case_id: existing.id },
      );
    }
    const receipt = await recordReceipt(tx, {
      step: 'governance.court.open',
      subject: `case:${id}`,
      at: now,
    });
    await tx.query(
      `insert into governance_court_cases (id, sequence, triage_action_id, opener_id, reason, state, opened_at, receipt_id) values ($1, $2, $3, $4, $5, 'open', $6, $7)`,
      [id, input.sequence, decision.id, who.sovereignId, input.reason ?? null, now.toISOString(), receipt.id],
    );
    const record = one(await loadCases(tx, 'c.id = $1', [id], 1));
    return {
      ok: true as const,
      case: projectCase(record),
      state: record.state,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}

/** A juror's signature; the third concurring one makes the verdict final and sets a precedent. */
export async function signVerdict(
  ctx: AppContext,
  who: SignedIn,
  input: { caseId: string; verdict: Verdict; reason: string },
) {
  const now = ctx.clock.now();
  const id = normalizePrefixed('case_', input.caseId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.query('select id from governance_court_cases where id = $1 for update', [id]);
    if (!row)
      throw new Refusal(
        'not_found',
        { case_id: id },
        `No court case ${id} is recorded. Cases are listed at /api/verdicts.`,
      );
    const c = one(await loadCases(tx, 'c.id = $1', [id], 1));
    if (c.opener.actor_id === who.sovereignId)
      throw conflict('opener_cannot_sign', 'The sovereign who opened a case cannot sit as its juror.', {
        case_id: id,
      });
    if (c.signatures.some((s) => s.actor.actor_id === who.sovereignId))
      throw conflict('already_signed', 'You have already signed this verdict; a juror signs once.', {
        case_id: id,
        state: c.state,
      });
    if (c.state !== 'open')
      throw conflict('case_closed', `This case is final (${c.outcome}); no more signatures are taken.`, {
        case_id: id,
        state: c.state,
        outcome: c.outcome,
      });
    const receipt = await recordReceipt(tx, {
      step: `governance.court.sign.${input.verdict}`,
      subject: `case:${id}`,
      at: now,
    });
    await tx.query(
      'insert into governance_court_signatures (case_id, sovereign_id, verdict, reason, at, receipt_id) values ($1, $2, $3, $4, $5, $6)',
      [id, who.sovereignId, input.verdict, input.reason, now.toISOString(), receipt.id],
    );
    let verdict: { receipt_id: string; precedent_id: string; precedent_receipt_id: string } | null = null;
    const concurring = c.signatures.filter((s) => s.verdict === input.verdict).length + 1;
    if (concurring >= JURORS_REQUIRED) {
      const final = await recordReceipt(tx, {
        step: `governance.court.verdict.${input.verdict}`,
        subject: `case:${id}`,
        at: now,
      });
      await tx.query('select pg_advisory_xact_lock($1)', [PRECEDENT_NUMBER_LOCK]);
      const { next } = one(
        await tx.query<Counts<'next'>>(
          'select coalesce(max(number), 0) + 1 as next from governance_precedents',
        ),
      );
      const number = next;
      const precedentId = `precedent-${number}`;
      const set = await recordReceipt(tx, {
        step: 'governance.precedent',
        subject: `precedent:${precedentId}`,
        at: now,
      });
      // Its dissents are the signatures before this one on the other side (one per juror, no more
      // once final): kept on the case for /api/dissent and its tallies (migration 0093).
      const dissents = c.signatures.filter((s) => s.verdict !== input.verdict).length;
      await tx.query(
        `update governance_court_cases set state = 'final', outcome = $2, final_at = $3, final_receipt_id = $4, precedent_id = $5, dissents = $6 where id = $1`,
        [id, input.verdict, now.toISOString(), final.id, precedentId, dissents],
      );
      await tx.query(
        'insert into governance_precedents (id, number, case_id, holding, set_at, receipt_id) values ($1, $2, $3, $4, $5, $6)',
        [precedentId, number, id, holdingOf(c.disputed.action, input.verdict), now.toISOString(), set.id],
      );
      verdict = { receipt_id: final.id, precedent_id: precedentId, precedent_receipt_id: set.id };
    }
    const record = one(await loadCases(tx, 'c.id = $1', [id], 1));
    return {
      ok: true as const,
      case: projectCase(record),
      state: record.state,
      outcome: record.outcome,
      verdict: verdict
        ? {
            final: true,
            receipt_id: verdict.receipt_id,
            precedent: {
              id: verdict.precedent_id,
              receipt_id: verdict.precedent_receipt_id,
              href: `/api/court/precedent/${verdict.precedent_id}`,
            },
            verify: `/verify/court/${id}`,
          }
        : null,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}
