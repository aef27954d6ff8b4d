import type { Sql } from '../db/database.ts';
import { recordReceipt, type RecordedReceipt } from '../ledger/receipts.ts';
import { RECORD_WINDOW, type ImprintKind } from '../../shared/record/imprint.ts';

export interface NewImprint {
  kind: ImprintKind;
  body: string;
  authorKind: 'agent' | 'sovereign';
  authorRef: string;
  publicAuthor: string;
  unattested: boolean;
  held: boolean;
  heldReason: string | null;
  replyTo: number | null;
  at: Date;
}

export interface AppendedImprint {
  sequence: number;
  receipt: RecordedReceipt;
}

/**
 * Appends one imprint to the Record inside the caller's transaction and keeps the window:
 * the counter row is taken under its row lock (gap-free sequence even across processes), and
 * the body leaving the window is deleted in the same transaction — no copy survives.
 * The counter is taken as late as possible so the lock is held briefly.
 */
export async function appendImprint(tx: Sql, imprint: NewImprint): Promise<AppendedImprint> {
  const [counter] = await tx.query<{ value: string | number }>('update record_counter set value = value + 1 where id = 1 returning value');
  const sequence = Number(counter.value);
  const receipt = await recordReceipt(tx, { step: 'record.imprint', subject: `imprint:${sequence}`, at: imprint.at });
  await tx.query(
    `insert into imprints (sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [sequence, imprint.kind, imprint.body, imprint.authorKind, imprint.authorRef, imprint.publicAuthor, imprint.at.toISOString(),
      imprint.unattested, imprint.held, imprint.heldReason, imprint.replyTo, receipt.id],
  );
  await tx.query('update imprints set body = null where sequence <= $1 and body is not null', [sequence - RECORD_WINDOW]);
  return { sequence, receipt };
}
