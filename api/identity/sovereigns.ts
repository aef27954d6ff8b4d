import { randomBytes, randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { sha256Hex } from '../agents/credentials.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { actorTag } from '../../shared/boundaries/address-pressure.ts';

/** `sk_` + 32 random bytes, base64url (DESIGN.md section 2): shown once, stored as SHA-256. */
export function newSovereignKey(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

export interface CreatedSovereign {
  id: string;
  tag: string;
  /** The Sovereign Key: returned once, to be shown once. */
  key: string;
  receiptId: string;
}

/** Crossing: a new Sovereign with a keyed-hash public tag, its key stored hashed, and a receipt. */
export async function createSovereign(
  ctx: AppContext,
  input: { callsign?: string | null } = {},
  tx?: Sql,
): Promise<CreatedSovereign> {
  const id = randomUUID();
  const tag = await actorTag(id, ctx.keys.tagSecret);
  const key = newSovereignKey();
  const now = ctx.clock.now();
  const work = async (sql: Sql) => {
    await sql.query(
      `insert into sovereigns (id, tag, callsign, key_hash, created_at, last_seen_at) values ($1, $2, $3, $4, $5, $5)`,
      [id, tag, input.callsign ?? null, sha256Hex(key), now.toISOString()],
    );
    return recordReceipt(sql, { step: 'identity.cross', subject: `sovereign:${tag}`, at: now });
  };
  const receipt = tx ? await work(tx) : await ctx.db.transaction(work);
  return { id, tag, key, receiptId: receipt.id };
}
