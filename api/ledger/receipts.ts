import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import type { Sql } from '../db/database.ts';

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
}

/** The canonical leaf data: JSON of id, recorded_at, step, subject with sorted keys and no spaces. */
export function receiptLeafBytes(receipt: { id: string; step: string; subject: string; recorded_at: string }): Buffer {
  const canonical = JSON.stringify({ id: receipt.id, recorded_at: receipt.recorded_at, step: receipt.step, subject: receipt.subject });
  return Buffer.from(canonical, 'utf8');
}

/** RFC 6962 leaf hash: SHA-256(0x00 ‖ data), lowercase hex. */
export function receiptLeafHash(data: Buffer): string {
  return createHash('sha256').update(Buffer.from([0])).update(data).digest('hex');
}

/**
 * Records a receipt inside the caller's transaction, as the next leaf of its UTC day's tree.
 * Every family records its steps through here, so every accepted mutation gets a receipt by
 * construction. A day already sealed takes no more leaves: the receipt moves to the next day.
 */
export async function recordReceipt(tx: Sql, input: ReceiptInput): Promise<RecordedReceipt> {
  const id = `rcpt_${ulid(input.at.getTime())}`;
  const recorded_at = input.at.toISOString();
  let day = new Date(Date.UTC(input.at.getUTCFullYear(), input.at.getUTCMonth(), input.at.getUTCDate()));
  for (;;) {
    const date = day.toISOString().slice(0, 10);
    const [slot] = await tx.query<{ size: number | string }>(
      `insert into log_days (date, size) values ($1, 1)
       on conflict (date) do update set size = log_days.size + 1 where log_days.sealed_at is null
       returning size`,
      [date],
    );
    if (!slot) {
      day = new Date(day.getTime() + 86_400_000);
      continue;
    }
    const leaf_index = Number(slot.size) - 1;
    const leaf_hash = receiptLeafHash(receiptLeafBytes({ id, step: input.step, subject: input.subject, recorded_at }));
    await tx.query(
      `insert into receipts (id, step, subject, recorded_at, leaf_hash, log_date, leaf_index) values ($1, $2, $3, $4, $5, $6, $7)`,
      [id, input.step, input.subject, recorded_at, leaf_hash, date, leaf_index],
    );
    return { id, step: input.step, subject: input.subject, recorded_at, leaf_hash, log: { date, leaf_index } };
  }
}
