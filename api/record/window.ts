import type { Sql } from '../db/database.ts';
import { recordReceipts, type RecordedReceipt } from '../ledger/receipts.ts';
import { RECORD_WINDOW, type ImprintKind } from '../../shared/record/imprint.ts';
import { one, type RowOf } from '../db/rows.ts';
import type { RecordCounter } from './entities.ts';

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
  const appended = one(await appendImprints(tx, [imprint]));
  return appended;
}

/**
 * Appends imprints in the given order as one run of consecutive sequence numbers (the group
 * commit of docs/record.md): one counter update claims the whole run under the counter's row
 * lock, then the rows, their receipts and one window trim. Gap-free across processes, because the
 * claim and the rows commit or vanish together.
 */
export async function appendImprints(tx: Sql, drafts: readonly NewImprint[]): Promise<AppendedImprint[]> {
  const [oldestDraft] = drafts;
  if (oldestDraft === undefined) return [];
  // The claim also keeps the newest imprint's time: a host whose clock (the database's, read
  // through an offset) runs a little behind the one that wrote the run before stamps no imprint
  // earlier than it (FOR UPDATE reads the row as the previous claim committed it).
  const newest = drafts.reduce((max, draft) => (draft.at > max ? draft.at : max), oldestDraft.at);
  const counter = one(
    // Raw: the imprint write path's invariant (the counter locked and bumped in one CTE'd update).
    await tx.query<
      Pick<RowOf<typeof RecordCounter>, 'value'> & { previous_at: RowOf<typeof RecordCounter>['last_at'] }
    >(
      `with previous as (select last_at from record_counter where id = 1 for update)
     update record_counter set value = value + $1, last_at = greatest(previous.last_at, $2::timestamptz)
       from previous where id = 1 returning value, previous.last_at as previous_at`,
      [drafts.length, newest.toISOString()],
    ),
  );
  const last = counter.value;
  const first = last - drafts.length + 1;
  const floor = counter.previous_at === null ? 0 : new Date(counter.previous_at).getTime();
  const imprints = drafts.map((draft) =>
    draft.at.getTime() < floor ? { ...draft, at: new Date(floor) } : draft,
  );
  const column = <K extends keyof NewImprint>(key: K) => imprints.map((imprint) => imprint[key]);
  // The rows and the trim of the bodies leaving the window ride with the receipts: one round trip.
  // Imprint n evicts imprint n − RECORD_WINDOW, so the run first..last evicts exactly the run
  // first − RECORD_WINDOW .. last − RECORD_WINDOW: a primary-key range of the batch's own size, never
  // a scan of the table. The trim does not see the new rows (one snapshot), and needs not: a batch
  // (≤ SEQUENCER_POLICY.maxBatch, api/record/sequencer-policy.ts, < RECORD_WINDOW) stays inside the window.
  const receipts = await recordReceipts(
    tx,
    imprints.map((imprint, i) => ({
      step: 'record.imprint',
      subject: `imprint:${first + i}`,
      at: imprint.at,
    })),
    (receiptIds, p) => ({
      ctes: `appended as (
         insert into imprints (sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id)
         select $${p}::bigint + i.n - 1, i.kind, i.body, i.author_kind, i.author_ref, i.public_author, i.created_at, i.unattested, i.held, i.held_reason, i.reply_to, i.receipt_id
         from slot, unnest($${p + 1}::text[], $${p + 2}::text[], $${p + 3}::text[], $${p + 4}::text[], $${p + 5}::text[], $${p + 6}::timestamptz[],
                           $${p + 7}::boolean[], $${p + 8}::boolean[], $${p + 9}::text[], $${p + 10}::bigint[], $${p + 11}::text[])
              with ordinality as i(kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id, n)),
       trimmed as (update imprints set body = null where sequence between $${p + 12} and $${p + 13} and body is not null and exists (select 1 from slot))`,
      params: [
        first,
        column('kind'),
        column('body'),
        column('authorKind'),
        column('authorRef'),
        column('publicAuthor'),
        imprints.map((imprint) => imprint.at.toISOString()),
        column('unattested'),
        column('held'),
        column('heldReason'),
        column('replyTo'),
        receiptIds,
        first - RECORD_WINDOW,
        last - RECORD_WINDOW,
      ],
    }),
  );
  // One receipt per imprint, in order.
  return receipts.map((receipt, i) => ({ sequence: first + i, receipt }));
}
