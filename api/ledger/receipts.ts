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
    // One round trip: claim the run of leaf indexes and insert the leaves (nothing is inserted when the day is sealed).
    // The frontier comes back as the claimed row holds it: the latest committed version (the row
    // lock waited for its writer), which this statement does not change.
    const [slot] = await tx.query<Pick<RowOf<typeof LogDay>, 'date' | 'size' | 'frontier'>>(
      `with slot as (
         insert into log_days (date, size, frontier)
         select greatest($1::date, coalesce((select max(date) + 1 from log_days where sealed_at is not null), $1::date)), $2, ''::bytea
         on conflict (date) do update set size = log_days.size + $2 where log_days.sealed_at is null
         returning date, size, frontier),
       leaves as (
         insert into receipts (id, step, subject, subject_salt, subject_digest, recorded_at, leaf_hash, log_date, leaf_index)
         select l.id, l.step, l.subject, l.subject_salt, l.subject_digest, l.recorded_at, l.leaf_hash, slot.date, (slot.size - $2 + l.n - 1)::int
         from slot, unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[]) with ordinality
              as l(id, step, subject, subject_salt, subject_digest, recorded_at, leaf_hash, n))
       select to_char(date, 'YYYY-MM-DD') as date, size, frontier from slot`,
      [
        candidate,
        leaves.length,
        leaves.map((l) => l.id),
        leaves.map((l) => l.step),
        leaves.map((l) => l.subject),
        leaves.map((l) => l.subject_salt),
        leaves.map((l) => l.subject_digest),
        leaves.map((l) => l.recorded_at),
        leaves.map((l) => l.leaf_hash),
      ],
    );
    if (!slot) {
      candidate = new Date(Date.parse(`${candidate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      continue;
    }
    const first = slot.size - leaves.length;
    const date = slot.date;
    await keepInterior(tx, date, first, slot.frontier, leaves);
    return leaves.map((leaf, i) => ({ ...leaf, log: { date, leaf_index: first + i } }));
  }
  throw new Error('no open log day found for the receipt');
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
): Promise<void> {
  const update = tileUpdate(
    date,
    first,
    frontier,
    leaves.map((leaf) => leaf.leaf_hash),
    1,
  );
  if (!update) return;
  await writeTiles(tx, update);
}
