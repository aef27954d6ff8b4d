import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { HOLD_REASONS } from '../../shared/boundaries/projectors/spam.ts';
import type { ImprintKind } from '../../shared/record/imprint.ts';
import { REPORT_REASONS, type imprintResultSchema } from '../../shared/record/contract.ts';
import type { z } from 'zod';
import { sequence } from './sequencer.ts';
import type { Door, Draft } from './sequencer-doors.ts';

export interface HumanImprintInput {
  body: string;
  kind: ImprintKind;
  reply_to?: number;
  /** The public tag; required without a session, ignored with one. */
  sovereign_id?: string;
}

export type ImprintResult = z.infer<typeof imprintResultSchema>;

/**
 * A human imprint. Signed in: the session's sovereign, attested. No session: `sovereign_id` (a
 * public tag some sovereign holds) is required, and the imprint is recorded unverified and
 * quarantined (unattested): an identifier is never a credential. Recorded through the sequencer.
 */
export async function humanImprint(
  ctx: AppContext,
  input: HumanImprintInput,
  signedIn: SignedIn | undefined,
): Promise<ImprintResult> {
  const now = ctx.clock.now();
  let authorRef: string;
  let tag: string;
  if (signedIn) {
    authorRef = signedIn.sovereignId;
    tag = signedIn.tag;
  } else {
    const claimed = input.sovereign_id?.trim().toLowerCase() ?? '';
    if (!claimed) {
      throw new Refusal('invalid_request', {
        issues: [
          {
            path: 'sovereign_id',
            message: 'Without a session, your Sovereign ID (your public 4-hex tag) is required.',
          },
        ],
      });
    }
    if (!/^[0-9a-f]{4}$/.test(claimed)) {
      throw new Refusal('invalid_request', {
        issues: [{ path: 'sovereign_id', message: 'A Sovereign ID is 4 hexadecimal characters, e.g. 3fa9.' }],
      });
    }
    const [exists] = await ctx.db.query('select 1 from sovereigns where tag = $1 limit 1', [claimed]);
    if (!exists)
      throw new Refusal('invalid_request', {
        issues: [{ path: 'sovereign_id', message: 'No Sovereign holds this ID.' }],
      });
    authorRef = `unverified:${claimed}`;
    tag = claimed;
  }
  return sequence(ctx.db, humanDoor, {
    authorRef,
    tag,
    body: input.body,
    kind: input.kind,
    replyTo: input.reply_to ?? null,
    at: now,
    unattested: !signedIn,
  });
}

interface HumanDraft extends Draft {
  tag: string;
  kind: ImprintKind;
  unattested: boolean;
}

/** The human door of the sequencer: no rows of its own to lock or write, only the imprint. */
const humanDoor: Door<HumanDraft, null, ImprintResult> = {
  async lock(_tx, drafts) {
    return drafts.map(() => null);
  },
  async admit(_tx, entries) {
    return entries.map(({ draft, verdict }) => ({
      imprint: {
        kind: draft.kind,
        body: draft.body,
        authorKind: 'sovereign',
        authorRef: draft.authorRef,
        publicAuthor: draft.tag,
        unattested: draft.unattested,
        held: verdict.held,
        heldReason: verdict.held ? verdict.rule : null,
        replyTo: draft.replyTo,
        at: draft.at,
      },
      answer: (appended): ImprintResult => ({
        ok: true,
        sequence: appended.sequence,
        receipt_id: appended.receipt.id,
        unattested: draft.unattested,
        held: verdict.held,
        ...(verdict.held ? { held_reason: HOLD_REASONS[verdict.rule] } : {}),
      }),
    }));
  },
};

export { REPORT_REASONS };

/** /imprint/report: anyone reports an imprint; it goes to steward triage. The reporter is never published. */
export async function reportImprint(
  ctx: AppContext,
  input: { sequence: number; reason: (typeof REPORT_REASONS)[number]; detail?: string },
  reporter: { kind: 'sovereign' | 'agent' | 'anonymous'; ref: string | null },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [target] = await tx.query('select 1 from imprints where sequence = $1', [input.sequence]);
    if (!target)
      throw new Refusal(
        'not_found',
        { sequence: input.sequence },
        `No imprint #${input.sequence} is recorded.`,
      );
    const id = newId('rep', now);
    const receipt = await recordReceipt(tx, {
      step: 'record.report',
      subject: `imprint:${input.sequence}`,
      at: now,
    });
    await tx.query(
      `insert into imprint_reports (id, sequence, reason, detail, reporter_kind, reporter_ref, status, created_at, receipt_id)
       values ($1, $2, $3, $4, $5, $6, 'open', $7, $8)`,
      [
        id,
        input.sequence,
        input.reason,
        input.detail ?? null,
        reporter.kind,
        reporter.ref,
        now.toISOString(),
        receipt.id,
      ],
    );
    return {
      ok: true as const,
      report_id: id,
      sequence: input.sequence,
      status: 'open' as const,
      receipt_id: receipt.id,
    };
  });
}
