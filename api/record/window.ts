import type { Sql } from '../db/database.ts';
import {
  claimLeaves,
  claimLeavesAt,
  draftReceipts,
  recordOnClaim,
  type ClaimedLeaves,
  type LogEnd,
  type RecordedReceipt,
} from '../ledger/receipts.ts';
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
  if (drafts.length === 0) return [];
  return (await appendClaimed(tx, await claimRun(tx, drafts.length, newestOf(drafts)), drafts)).imprints;
}

/** A run of sequence numbers claimed under the counter's row lock, and the time floor it keeps. */
export interface ClaimedRun {
  /** The counter after the claim: the run is last − count + 1 .. last. */
  last: number;
  count: number;
  /** No imprint of the run is stamped earlier (ms since the epoch; 0: no floor). */
  floor: number;
  /** As many leaf indexes claimed for the run's receipts, on the newest imprint's day (undefined: that day was sealed). */
  leaves: ClaimedLeaves | undefined;
  /** The counter's time once the claim commits: the next run's floor. */
  lastAt: number;
}

/**
 * Where a batch left the Record once it committed: the counter, its time floor, and the day's log.
 * The next batch of this process can claim there without waiting for an answer (claimRunAt), as
 * long as no other writer moved them in between.
 */
export interface RecordEnd {
  value: number;
  floor: number;
  log: LogEnd | undefined;
}

/** A RecordEnd whose day's log is known (tiled): where a batch can claim without asking. */
export type KnownEnd = RecordEnd & { log: LogEnd };

/** The newest of the drafts' times (the claim keeps it as the next run's floor). */
export function newestOf(drafts: readonly { at: Date }[]): Date {
  return drafts.reduce((max, draft) => (draft.at > max ? draft.at : max), new Date(0));
}

/**
 * Claims `count` consecutive sequence numbers, locking the counter's row until the transaction
 * ends. The claim also keeps the newest imprint's time: a host whose clock (the database's, read
 * through an offset) runs a little behind the one that wrote the run before stamps no imprint
 * earlier than it (FOR UPDATE reads the row as the previous claim committed it). The sequencer
 * sends it with the doors' lock step, before it knows how many imprints will be admitted
 * (api/record/sequencer-batch.ts): appendClaimed gives back what it does not use.
 */
export async function claimRun(tx: Sql, count: number, newest: Date): Promise<ClaimedRun> {
  const counter = tx.query<
    Pick<RowOf<typeof RecordCounter>, 'value'> & { previous_at: RowOf<typeof RecordCounter>['last_at'] }
  >(
    // Raw: the imprint write path's invariant (the counter locked and bumped in one CTE'd update).
    `with previous as (select last_at from record_counter where id = 1 for update)
     update record_counter set value = value + $1, last_at = greatest(previous.last_at, $2::timestamptz)
       from previous where id = 1 returning value, previous.last_at as previous_at`,
    [count, newest.toISOString()],
  );
  counter.catch(() => {}); // awaited below
  // The receipts' leaves in the same round trip, after the counter (the one order every batch
  // locks them in): their frontier is known before the rows go out, so the rows, the receipts,
  // the tiles and the commit share one round trip (docs/record.md, "Two round trips").
  const leaves = await claimLeaves(tx, newest.toISOString().slice(0, 10), count);
  const claimed = one(await counter);
  const floor = claimed.previous_at === null ? 0 : new Date(claimed.previous_at).getTime();
  return { last: claimed.value, count, floor, leaves, lastAt: Math.max(floor, newest.getTime()) };
}

/**
 * Claims `count` sequence numbers and as many leaves where `end` says this process's last batch
 * left them, without waiting for an answer (the sequencer's batch of arrivals, docs/record.md,
 * "Arrivals in one round trip"). The counter's row is locked as claimRun locks it, and the
 * statement fails (division by zero, the whole transaction with it) unless the counter is still
 * `end.value`: then no other writer claimed in between, and `end.floor` is still its time.
 */
export async function claimRunAt(tx: Sql, end: KnownEnd, count: number, newest: Date): Promise<ClaimedRun> {
  // Raw: the imprint write path's invariant, as claimRun's.
  await tx.send(
    `with claimed as (
       update record_counter set value = value + $1, last_at = greatest(last_at, $2::timestamptz)
        where id = 1 and value = $3 returning 1)
     select 1 / count(*) from claimed`,
    [count, newest.toISOString(), end.value],
  );
  const leaves = await claimLeavesAt(tx, end.log, count);
  const lastAt = Math.max(end.floor, newest.getTime());
  return { last: end.value + count, count, floor: end.floor, leaves, lastAt };
}

/**
 * Writes `drafts` (at most `claim.count` of them) as the first sequence numbers of the claimed
 * run, and gives the rest of the run back in the same transaction, which still holds the
 * counter's row lock: the sequence stays gap-free.
 */
export async function appendClaimed(
  tx: Sql,
  claim: ClaimedRun,
  drafts: readonly NewImprint[],
): Promise<{ imprints: AppendedImprint[]; end: RecordEnd }> {
  if (drafts.length > claim.count) throw new Error('more imprints than the claimed run');
  const unused = claim.count - drafts.length;
  const ended = (log: LogEnd | undefined): RecordEnd => ({
    value: claim.last - unused,
    floor: claim.lastAt,
    log,
  });
  // Raw: the imprint write path; the counter is ours until the commit.
  if (unused > 0) await tx.send('update record_counter set value = value - $1 where id = 1', [unused]);
  if (drafts.length === 0) {
    const { end } = await recordOnClaim(tx, claim.leaves, []); // gives the leaves back
    return { imprints: [], end: ended(end) };
  }
  const first = claim.last - claim.count + 1;
  const last = first + drafts.length - 1;
  const imprints = drafts.map((draft) =>
    draft.at.getTime() < claim.floor ? { ...draft, at: new Date(claim.floor) } : draft,
  );
  const column = <K extends keyof NewImprint>(key: K) => imprints.map((imprint) => imprint[key]);
  // The record writes its rows, then asks the ledger for their receipts: the receipts are drafted
  // first (ids and leaves need no database), so each row names its receipt, and their leaves were
  // claimed with the counter, so nothing below needs an answer: the rows, the window's trim, the
  // receipts and the tiles are sent (pipelined on PostgreSQL, docs/record.md, "Round trips") and
  // go out with the commit, and a failure fails the whole transaction. Imprint
  // n evicts imprint n − RECORD_WINDOW, so the run first..last evicts exactly the run
  // first − RECORD_WINDOW .. last − RECORD_WINDOW: a primary-key range of the batch's own size,
  // never a scan of the table. The trim does not see the new rows (one snapshot), and needs not: a
  // batch (≤ SEQUENCER_POLICY.maxBatch, api/record/sequencer-policy.ts, < RECORD_WINDOW) stays
  // inside the window.
  const receiptDrafts = draftReceipts(
    imprints.map((imprint, i) => ({
      step: 'record.imprint',
      subject: `imprint:${first + i}`,
      at: imprint.at,
    })),
  );
  // Raw: the imprint write path's one statement of rows.
  await tx.send(
    `with appended as (
       insert into imprints (sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id)
       select $1::bigint + i.n - 1, i.kind, i.body, i.author_kind, i.author_ref, i.public_author, i.created_at, i.unattested, i.held, i.held_reason, i.reply_to, i.receipt_id
       from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                   $8::boolean[], $9::boolean[], $10::text[], $11::bigint[], $12::text[])
            with ordinality as i(kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id, n))
     update imprints set body = null where sequence between $13 and $14 and body is not null`,
    [
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
      receiptDrafts.map((draft) => draft.id),
      first - RECORD_WINDOW,
      last - RECORD_WINDOW,
    ],
  );
  const { receipts, end } = await recordOnClaim(tx, claim.leaves, receiptDrafts);
  // One receipt per imprint, in order.
  return { imprints: receipts.map((receipt, i) => ({ sequence: first + i, receipt })), end: ended(end) };
}
