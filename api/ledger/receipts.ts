import { createHash } from 'node:crypto';
import { newId } from '../ids.ts';
import { pooledRandomBytes } from '../random-pool.ts';
import type { Sql } from '../db/database.ts';
import { receiptLeafData } from '../../shared/ledger/hash.ts';
import { tileUpdate, writeTiles } from './tiles.ts';
import { one, type RowOf } from '../db/rows.ts';
import type { LogDay } from './entities.ts';

/** What a receipt says: this step, about this public subject, was recorded at this time. */
export interface ReceiptInput {
  /** Step kind, `family.verb`, e.g. `record.imprint`, `agents.arrive`. */
  step: string;
  /** Public reference of the subject (`imprint:42`, `agent:nova`, `sovereign:3fa9`), never a raw id. */
  subject: string;
  at: Date;
}

export interface RecordedReceipt {
  id: string;
  step: string;
  subject: string;
  recorded_at: string;
  leaf_hash: string;
  log: { date: string; leaf_index: number };
  /** 32 lowercase hex: the per-receipt salt of the subject commitment */
  subject_salt: string;
  /** lowercase hex SHA-256(subject_salt || subject): what the leaf commits to */
  subject_digest: string;
}

/**
 * Records a receipt inside the caller's transaction, as the next leaf of its UTC day's tree.
 * Every family records its steps through here, so every accepted mutation gets a receipt by
 * construction. The leaf is shared/ledger's one definition (receiptLeafHash over the salted
 * subject digest). A day already sealed takes no more leaves: the receipt moves to the next day
 * — and never to a day before the newest sealed one, so anchors stay in date order.
 */
export async function recordReceipt(tx: Sql, input: ReceiptInput): Promise<RecordedReceipt> {
  const receipt = one(await recordReceipts(tx, [input]));
  return receipt;
}

/**
 * Records several receipts in one go (the Record's group commit): consecutive inputs of one UTC
 * day take one contiguous run of leaf indexes with a single claim on the day's size, in input
 * order, and are inserted together. Same leaves, same rules as one recordReceipt per input.
 */
export async function recordReceipts(tx: Sql, inputs: readonly ReceiptInput[]): Promise<RecordedReceipt[]> {
  return recordDrafts(tx, draftReceipts(inputs));
}

/**
 * A receipt drafted but not yet recorded: its id, salt and leaf are fixed here, its place in the
 * day's log is given when it is recorded (recordDrafts). For a caller whose own rows name their
 * receipt and go out before it (the Record's imprints, api/record/window.ts).
 */
export type ReceiptDraft = Omit<RecordedReceipt, 'log'>;

/** Drafts one receipt per input, in order (no database: ids, salts and leaf hashes are made here). */
export function draftReceipts(inputs: readonly ReceiptInput[]): ReceiptDraft[] {
  return inputs.map(leafOf);
}

/** Records drafted receipts, as recordReceipts records its inputs. */
export async function recordDrafts(tx: Sql, drafts: readonly ReceiptDraft[]): Promise<RecordedReceipt[]> {
  const recorded: RecordedReceipt[] = [];
  // start and end stay below drafts.length where they index it.
  for (let start = 0; start < drafts.length;) {
    const day = drafts[start]!.recorded_at.slice(0, 10);
    let end = start + 1;
    while (end < drafts.length && drafts[end]!.recorded_at.slice(0, 10) === day) end++;
    recorded.push(...(await appendLeaves(tx, day, drafts.slice(start, end))));
    start = end;
  }
  return recorded;
}

type Leaf = ReceiptDraft;

const LEAF_PREFIX = Buffer.of(0x00);

/**
 * The leaf of shared/ledger/hash.ts, hashed here synchronously with node:crypto (the same SHA-256
 * over the same bytes as subjectDigest and receiptLeafHash, whose WebCrypto digests each take a
 * trip through the thread pool): the Record's batch computes its leaves while it holds the
 * counter's row lock, so they must cost microseconds, not event-loop turns.
 */
function leafOf(input: ReceiptInput): Leaf {
  const id = newId('rcpt', input.at);
  const recorded_at = input.at.toISOString();
  const salt = pooledRandomBytes(16);
  const subject_salt = salt.toString('hex');
  const subject_digest = createHash('sha256').update(salt).update(input.subject, 'utf8').digest('hex');
  const data = receiptLeafData({ id, step: input.step, subject_digest, recorded_at });
  const leaf_hash = createHash('sha256').update(LEAF_PREFIX).update(data).digest('hex');
  return {
    id,
    step: input.step,
    subject: input.subject,
    recorded_at,
    leaf_hash,
    subject_salt,
    subject_digest,
  };
}

/** Claims `leaves.length` consecutive leaf indexes on the first open day from `day` on, then inserts the leaves. */
async function appendLeaves(tx: Sql, day: string, leaves: Leaf[]): Promise<RecordedReceipt[]> {
  let candidate = day;
  for (let attempt = 0; attempt < 64; attempt++) {
    const claim = await claimLeaves(tx, candidate, leaves.length);
    if (claim) return (await placeLeaves(tx, claim, leaves)).receipts;
    candidate = new Date(Date.parse(`${candidate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  }
  throw new Error('no open log day found for the receipt');
}

/** A run of leaf indexes claimed on one open day, and the day's frontier as the claim found it. */
export interface ClaimedLeaves {
  /** The day asked for (the leaves' own UTC day); `date` is the open day that gave the run. */
  day: string;
  date: string;
  first: number;
  count: number;
  frontier: Uint8Array | null;
}

/**
 * Claims `count` consecutive leaf indexes on `day`, or on the first day after the newest sealed
 * one if `day` is not after it, locking that day's row until the transaction ends; undefined when
 * that day was sealed meanwhile (nothing claimed: the caller tries the next day). The frontier
 * comes back as the claimed row holds it: the latest committed version (the row lock waited for
 * its writer), which nothing else can change until this transaction ends.
 */
export async function claimLeaves(tx: Sql, day: string, count: number): Promise<ClaimedLeaves | undefined> {
  const [slot] = await tx.query<Pick<RowOf<typeof LogDay>, 'date' | 'size' | 'frontier'>>(
    `insert into log_days (date, size, frontier)
     select greatest($1::date, coalesce((select max(date) + 1 from log_days where sealed_at is not null), $1::date)), $2, ''::bytea
     on conflict (date) do update set size = log_days.size + $2 where log_days.sealed_at is null
     returning to_char(date, 'YYYY-MM-DD') as date, size, frontier`,
    [day, count],
  );
  return slot && { day, date: slot.date, first: slot.size - count, count, frontier: slot.frontier };
}

/**
 * Where a day's log ended once a run was recorded on its claim: what the next claim on that day
 * will find, unless another writer claimed on it in between (claimLeavesAt checks).
 */
export interface LogEnd {
  /** The day asked for, and the open day that gave the run (as in ClaimedLeaves). */
  day: string;
  date: string;
  size: number;
  frontier: Uint8Array;
}

/**
 * Claims `count` leaf indexes where `end` says the day's log ended, without waiting for an answer
 * (the Record's batch of arrivals, docs/record.md, "Arrivals in one round trip"). The statement
 * locks the day's row as claimLeaves does, and fails (division by zero, the whole transaction with
 * it) unless the day is still open, no later day is sealed and its size is still `end.size`: then
 * nothing moved the log since `end`, and its frontier is `end.frontier`.
 */
export async function claimLeavesAt(tx: Sql, end: LogEnd, count: number): Promise<ClaimedLeaves> {
  await tx.send(
    `with claimed as (
       update log_days set size = size + $3 where date = $1::date and size = $2 and sealed_at is null
          and not exists (select 1 from log_days later where later.date > $1::date and later.sealed_at is not null)
       returning 1)
     select 1 / count(*) from claimed`,
    [end.date, end.size, count],
  );
  return { day: end.day, date: end.date, first: end.size, count, frontier: end.frontier };
}

/** Receipts recorded on a claim, and where the claimed day's log ends after them (when known). */
export interface RecordedOnClaim {
  receipts: RecordedReceipt[];
  end: LogEnd | undefined;
}

/**
 * Records drafted receipts on a run claimed before they were drafted (the Record's batch claims
 * with its first round trip, api/record/window.ts): when they all fall on the claimed day and fit
 * the run, their rows and the day's tiles are sent and nothing waits for an answer; the rest of the
 * run is given back under the same row lock. Otherwise the whole run is given back and the drafts
 * are recorded as recordDrafts records them.
 */
export async function recordOnClaim(
  tx: Sql,
  claim: ClaimedLeaves | undefined,
  drafts: readonly ReceiptDraft[],
): Promise<RecordedOnClaim> {
  const fits =
    claim !== undefined &&
    drafts.length <= claim.count &&
    drafts.every((draft) => draft.recorded_at.slice(0, 10) === claim.day);
  if (claim) await giveBack(tx, claim, fits ? drafts.length : 0);
  if (!fits) return { receipts: await recordDrafts(tx, drafts), end: undefined };
  if (drafts.length === 0) return { receipts: [], end: endOf(claim, 0, claim.frontier) };
  return placeLeaves(tx, claim, [...drafts]);
}

function endOf(claim: ClaimedLeaves, used: number, frontier: Uint8Array | null): LogEnd | undefined {
  return frontier ? { day: claim.day, date: claim.date, size: claim.first + used, frontier } : undefined;
}

/**
 * Shortens a claimed run to its first `used` leaves. The run must still end the day's log: nothing
 * else claims on the day while this transaction holds its row, and the statement fails (division by
 * zero, the whole transaction with it) rather than leave a gap or a duplicate index if it did.
 */
async function giveBack(tx: Sql, claim: ClaimedLeaves, used: number): Promise<void> {
  if (used === claim.count) return;
  await tx.send(
    `with given as (update log_days set size = $3 where date = $1::date and size = $2 returning 1)
     select 1 / count(*) from given`,
    [claim.date, claim.first + claim.count, claim.first + used],
  );
}

/** Inserts the leaves at the claimed run's indexes and keeps the day's tiles; both are sent. */
async function placeLeaves(tx: Sql, claim: ClaimedLeaves, leaves: Leaf[]): Promise<RecordedOnClaim> {
  await tx.send(
    `insert into receipts (id, step, subject, subject_salt, subject_digest, recorded_at, leaf_hash, log_date, leaf_index)
     select l.id, l.step, l.subject, l.subject_salt, l.subject_digest, l.recorded_at, l.leaf_hash, $1::date, ($2::int + l.n - 1)::int
     from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[]) with ordinality
          as l(id, step, subject, subject_salt, subject_digest, recorded_at, leaf_hash, n)`,
    [
      claim.date,
      claim.first,
      leaves.map((l) => l.id),
      leaves.map((l) => l.step),
      leaves.map((l) => l.subject),
      leaves.map((l) => l.subject_salt),
      leaves.map((l) => l.subject_digest),
      leaves.map((l) => l.recorded_at),
      leaves.map((l) => l.leaf_hash),
    ],
  );
  const frontier = await keepInterior(tx, claim.date, claim.first, claim.frontier, leaves);
  return {
    receipts: leaves.map((leaf, i) => ({ ...leaf, log: { date: claim.date, leaf_index: claim.first + i } })),
    end: endOf(claim, leaves.length, frontier),
  };
}

/**
 * The day's tree interior for the leaves just claimed (api/ledger/tiles.ts): one more statement,
 * per run of leaves and not per leaf, while this transaction still holds the day's row lock. It
 * checks itself and nothing is read back, so it is sent: in the Record's pipelined transaction it
 * shares its round trip with the commit.
 */
async function keepInterior(
  tx: Sql,
  date: string,
  first: number,
  frontier: Uint8Array | null,
  leaves: Leaf[],
): Promise<Uint8Array | null> {
  const update = tileUpdate(
    date,
    first,
    frontier,
    leaves.map((leaf) => leaf.leaf_hash),
    1,
  );
  if (!update) return null;
  await writeTiles(tx, update);
  return update.frontier;
}
