import { ulid } from 'ulid';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { BURST_WINDOW_MS, gate, type GateVerdict } from '../../shared/record/gate.ts';
import { HOLD_REASONS } from '../../shared/boundaries/projectors/spam.ts';
import type { ImprintKind } from '../../shared/record/imprint.ts';
import { appendImprint } from './window.ts';

/** Runs the spam gate with the author's recent facts (read inside the writing transaction). */
export async function runGate(tx: Sql, authorRef: string, body: string, now: Date): Promise<GateVerdict> {
  const recent = await tx.query<{ body: string }>(
    'select body from imprints where author_ref = $1 and body is not null order by sequence desc limit 20',
    [authorRef],
  );
  const [burst] = await tx.query<{ n: string | number }>(
    'select count(*) as n from imprints where author_ref = $1 and created_at > $2',
    [authorRef, new Date(now.getTime() - BURST_WINDOW_MS).toISOString()],
  );
  return gate({ body, recentBodies: recent.map((r) => r.body), recentCount: Number(burst.n) });
}

/** reply_to must name an imprint that exists (its body may have left the window; the thread stays). */
export async function assertReplyTarget(tx: Sql, replyTo: number | undefined): Promise<void> {
  if (replyTo === undefined) return;
  const [row] = await tx.query('select 1 from imprints where sequence = $1 and held = false', [replyTo]);
  if (!row) throw new Refusal('invalid_request', { issues: [{ path: 'reply_to', message: `No public imprint #${replyTo} to reply to.` }] });
}

export interface HumanImprintInput {
  body: string;
  kind: ImprintKind;
  reply_to?: number;
  /** The public tag; required without a session, ignored with one. */
  sovereign_id?: string;
}

export interface ImprintResult {
  ok: true;
  sequence: number;
  receipt_id: string;
  unattested: boolean;
  held: boolean;
  held_reason?: string;
}

/**
 * A human imprint. Signed in: the session's sovereign, attested. No session: `sovereign_id` (a
 * public tag some sovereign holds) is required, and the imprint is recorded unverified and
 * quarantined (unattested): an identifier is never a credential.
 */
export async function humanImprint(ctx: AppContext, input: HumanImprintInput, signedIn: SignedIn | undefined): Promise<ImprintResult> {
  const now = ctx.clock.now();
  let authorRef: string;
  let tag: string;
  if (signedIn) {
    authorRef = signedIn.sovereignId;
    tag = signedIn.tag;
  } else {
    const claimed = input.sovereign_id?.trim().toLowerCase() ?? '';
    if (!claimed) {
      throw new Refusal('invalid_request', { issues: [{ path: 'sovereign_id', message: 'Without a session, your Sovereign ID (your public 4-hex tag) is required.' }] });
    }
    if (!/^[0-9a-f]{4}$/.test(claimed)) {
      throw new Refusal('invalid_request', { issues: [{ path: 'sovereign_id', message: 'A Sovereign ID is 4 hexadecimal characters, e.g. 3fa9.' }] });
    }
    const [exists] = await ctx.db.query('select 1 from sovereigns where tag = $1 limit 1', [claimed]);
    if (!exists) throw new Refusal('invalid_request', { issues: [{ path: 'sovereign_id', message: 'No Sovereign holds this ID.' }] });
    authorRef = `unverified:${claimed}`;
    tag = claimed;
  }
  const unattested = !signedIn;
  return ctx.db.transaction(async (tx) => {
    await assertReplyTarget(tx, input.reply_to);
    const verdict = await runGate(tx, authorRef, input.body, now);
    const appended = await appendImprint(tx, {
      kind: input.kind,
      body: input.body,
      authorKind: 'sovereign',
      authorRef,
      publicAuthor: tag,
      unattested,
      held: verdict.held,
      heldReason: verdict.held ? verdict.rule : null,
      replyTo: input.reply_to ?? null,
      at: now,
    });
    const result: ImprintResult = { ok: true, sequence: appended.sequence, receipt_id: appended.receipt.id, unattested, held: verdict.held };
    if (verdict.held) result.held_reason = HOLD_REASONS[verdict.rule];
    return result;
  });
}

export const REPORT_REASONS = ['abuse', 'spam', 'personal_data', 'other'] as const;

/** /imprint/report: anyone reports an imprint; it goes to steward triage. The reporter is never published. */
export async function reportImprint(
  ctx: AppContext,
  input: { sequence: number; reason: (typeof REPORT_REASONS)[number]; detail?: string },
  reporter: { kind: 'sovereign' | 'agent' | 'anonymous'; ref: string | null },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [target] = await tx.query('select 1 from imprints where sequence = $1', [input.sequence]);
    if (!target) throw new Refusal('not_found', { sequence: input.sequence }, `No imprint #${input.sequence} is recorded.`);
    const id = `rep_${ulid(now.getTime())}`;
    const receipt = await recordReceipt(tx, { step: 'record.report', subject: `imprint:${input.sequence}`, at: now });
    await tx.query(
      `insert into imprint_reports (id, sequence, reason, detail, reporter_kind, reporter_ref, status, created_at, receipt_id)
       values ($1, $2, $3, $4, $5, $6, 'open', $7, $8)`,
      [id, input.sequence, input.reason, input.detail ?? null, reporter.kind, reporter.ref, now.toISOString(), receipt.id],
    );
    return { ok: true as const, report_id: id, sequence: input.sequence, status: 'open' as const, receipt_id: receipt.id };
  });
}
