import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';

export { TRIAGE_ACTIONS, type TriageAction, type TriageTarget } from '../../shared/steward/contract.ts';
import type { TriageAction, TriageTarget } from '../../shared/steward/contract.ts';
import { one, type RowOf } from '../db/rows.ts';
import type { Imprint, ImprintReport } from '../record/entities.ts';

/** The imprint as triage locks it: its flags, and whether its body is still in the window. */
type ImprintState = Pick<RowOf<typeof Imprint>, 'sequence' | 'held' | 'unattested'> & { retained: boolean };
type Report = RowOf<typeof ImprintReport>;

export interface TriageResult {
  ok: true;
  action: TriageAction;
  target: string;
  imprint: {
    sequence: number;
    held: boolean;
    unattested: boolean;
    body_retained: boolean;
    publicly_visible: boolean;
  };
  reports_closed: string[];
  note_recorded: boolean;
  outcome: string;
  receipt_id: string;
  receipt: string;
}

async function lockImprint(tx: Sql, sequence: number): Promise<ImprintState> {
  const [row] = await tx.query<ImprintState>(
    'select sequence, held, unattested, body is not null as retained from imprints where sequence = $1 for update',
    [sequence],
  );
  if (!row)
    throw new Refusal('not_found', { target: `imprint:${sequence}` }, `No imprint #${sequence} is recorded.`);
  return {
    sequence: row.sequence,
    held: row.held,
    unattested: row.unattested,
    retained: row.retained,
  };
}

/**
 * One triage decision, in one transaction with its receipt (step `steward.triage.<action>`,
 * subject `imprint:<n>`, the public form). The steward's note is stored in steward_actions only.
 *
 * - release: a held imprint becomes public (its unattested flag kept). If its body already left
 *   the window, the release is recorded but nothing becomes visible, and the answer says so.
 *   Closes the target report (a report target) or every open report on the imprint (an imprint target).
 * - keep_held: the imprint stays held; the same reports are closed; the hold leaves the queue.
 * - dismiss: closes the report(s) as unfounded; the imprint is unchanged.
 * Deciding what was already decided answers 409 conflict, so a repeated or concurrent decision
 * takes effect once.
 */
export async function triage(
  ctx: AppContext,
  steward: SignedIn,
  input: { target: TriageTarget; action: TriageAction; note?: string },
): Promise<TriageResult> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // Locks in one order (the imprint, then its reports) so concurrent decisions queue, never deadlock.
    let sequence: number;
    if (input.target.kind === 'report') {
      const [report] = await tx.kysely
        .selectFrom('imprint_reports')
        .select('sequence')
        .where('id', '=', input.target.id)
        .execute();
      if (!report) throw new Refusal('not_found', { target: input.target.id }, 'No report has that id.');
      sequence = report.sequence;
    } else {
      sequence = input.target.sequence;
    }
    const imprint = await lockImprint(tx, sequence);
    let reportIds: string[];
    if (input.target.kind === 'report') {
      const report = one(
        await tx.query<Pick<Report, 'id' | 'status'>>(
          'select id, status from imprint_reports where id = $1 for update',
          [input.target.id],
        ),
      );
      if (report.status !== 'open')
        throw new Refusal(
          'conflict',
          { target: report.id, status: report.status },
          'This report was already closed.',
        );
      reportIds = [report.id];
    } else {
      const open = await tx.query<Pick<Report, 'id'>>(
        "select id from imprint_reports where sequence = $1 and status = 'open' order by created_at, id for update",
        [sequence],
      );
      reportIds = open.map((r) => r.id);
    }
    const targetName = input.target.kind === 'report' ? input.target.id : `imprint:${sequence}`;

    let outcome: string;
    let publiclyVisible = !imprint.held && imprint.retained;
    if (input.action === 'release') {
      if (!imprint.held) {
        throw new Refusal(
          'conflict',
          { target: targetName, held: false },
          `Imprint #${sequence} is not held; there is nothing to release. Dismiss the report if it is unfounded.`,
        );
      }
      await tx.query('update imprints set held = false where sequence = $1', [sequence]);
      imprint.held = false;
      publiclyVisible = imprint.retained;
      outcome = imprint.retained
        ? `Imprint #${sequence} is released: it is public in the Record now${imprint.unattested ? ' (still marked unattested)' : ''}.`
        : `The release of imprint #${sequence} is recorded, but its body already left the 500-row window: nothing becomes visible except its sequence number.`;
    } else if (input.action === 'keep_held') {
      if (!imprint.held) {
        throw new Refusal(
          'conflict',
          { target: targetName, held: false },
          `Imprint #${sequence} is public, not held; keep_held applies to held imprints. Dismiss the report if it is unfounded.`,
        );
      }
      if (input.target.kind === 'imprint') {
        const [kept] = await tx.query(
          "select 1 from steward_actions where sequence = $1 and action = 'keep_held' limit 1",
          [sequence],
        );
        if (kept && reportIds.length === 0) {
          throw new Refusal(
            'conflict',
            { target: targetName, status: 'kept_held' },
            `Imprint #${sequence} was already kept held and has no open report.`,
          );
        }
      }
      outcome = `Imprint #${sequence} stays held${reportIds.length ? `; ${reportIds.length} report${reportIds.length === 1 ? '' : 's'} closed` : ''}.`;
    } else {
      if (reportIds.length === 0) {
        throw new Refusal(
          'conflict',
          { target: targetName },
          `Imprint #${sequence} has no open report to dismiss.`,
        );
      }
      outcome = `${reportIds.length} report${reportIds.length === 1 ? '' : 's'} on imprint #${sequence} dismissed as unfounded; the imprint is unchanged.`;
    }

    const status =
      input.action === 'release' ? 'released' : input.action === 'keep_held' ? 'kept_held' : 'dismissed';
    if (reportIds.length) {
      await tx.query(
        'update imprint_reports set status = $2, closed_at = $3, closed_by_action = $4 where id = any($1::text[])',
        [reportIds, status, now.toISOString(), input.action],
      );
    }
    const receipt = await recordReceipt(tx, {
      step: `steward.triage.${input.action}`,
      subject: `imprint:${sequence}`,
      at: now,
    });
    const id = newId('tri', now);
    await tx.query(
      `insert into steward_actions (id, action, sequence, report_id, note, steward, outcome, receipt_id, at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        input.action,
        sequence,
        input.target.kind === 'report' ? input.target.id : null,
        input.note ?? null,
        `sovereign:${steward.tag}`,
        outcome,
        receipt.id,
        now.toISOString(),
      ],
    );
    return {
      ok: true as const,
      action: input.action,
      target: targetName,
      imprint: {
        sequence,
        held: imprint.held,
        unattested: imprint.unattested,
        body_retained: imprint.retained,
        publicly_visible: publiclyVisible,
      },
      reports_closed: reportIds,
      note_recorded: Boolean(input.note),
      outcome,
      receipt_id: receipt.id,
      receipt: `/receipt/${receipt.id}`,
    };
  });
}
