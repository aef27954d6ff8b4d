import type { Sql } from '../db/database.ts';
import { recordReceipts, type RecordedReceipt } from '../ledger/receipts.ts';
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
 */
export async function appendImprint(tx: Sql, imprint: NewImprint): Promise<AppendedImprint> {
  const [appended] = await appendImprints(tx, [imprint]);
  return appended;
}

/**
 * Appends imprints in the given order as one run of consecutive sequence numbers (the group
 * commit of docs/record.md): one counter update claims the whole run under the counter's row
 * lock, then the rows, their receipts and one window trim. Gap-free across processes, because the
 * claim and the rows commit or vanish together.
 */
export async function appendImprints(tx: Sql, imprints: readonly NewImprint[]): Promise<AppendedImprint[]> {
  if (imprints.length === 0) return [];
  const [counter] = await tx.query<{ value: string | number }>('update record_counter set value = value + $1 where id = 1 returning value', [imprints.length]);
  const last = Number(counter.value);
  const first = last - imprints.length + 1;
  const receipts = await recordReceipts(
    tx,
    imprints.map((imprint, i) => ({ step: 'record.imprint', subject: `imprint:${first + i}`, at: imprint.at })),
  );
  const column = <K extends keyof NewImprint>(key: K) => imprints.map((imprint) => imprint[key]);
  await tx.query(
    `insert into imprints (sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id)
     select $1::bigint + n - 1, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::boolean[], $9::boolean[], $10::text[], $11::bigint[], $12::text[])
          with ordinality as i(kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id, n)`,
    [first, column('kind'), column('body'), column('authorKind'), column('authorRef'), column('publicAuthor'),
      imprints.map((imprint) => imprint.at.toISOString()), column('unattested'), column('held'), column('heldReason'), column('replyTo'),
      receipts.map((receipt) => receipt.id)],
  );
  await tx.query('update imprints set body = null where sequence <= $1 and body is not null', [last - RECORD_WINDOW]);
  return imprints.map((_, i) => ({ sequence: first + i, receipt: receipts[i] }));
}
