/**
 * A sovereign's stored row and what its doors share: the callsign and key schemas, lookups by
 * id and by Sovereign Key, and the receipts of session steps.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { matchesHash, sha256Hex } from '../agents/credentials.ts';
import { recordReceipt } from '../ledger/receipts.ts';

/** A callsign: 1–40 letters, digits, spaces, dots, underscores or hyphens. Empty means none. */
export { callsignSchema } from '../../shared/identity/contract.ts';

/** A Sovereign Key as typed or pasted: surrounding whitespace is forgiven, the rest must match. */
export { keySchema } from '../../shared/identity/contract/doors.ts';

export const EMAIL_TOKEN_LIFETIME_MS = 24 * 3_600_000;

export async function sovereignRow(sql: Sql, id: string) {
  const [row] = await sql.kysely
    .selectFrom('sovereigns')
    .select([
      'id',
      'tag',
      'callsign',
      'callsign_visible',
      'key_hash',
      'email',
      'email_verified_at',
      'email_pending',
      'created_at',
      'last_seen_at',
      'uniqueness_verified_at',
      'idp_issuer',
      'idp_subject',
      'due_token_hash',
      'erased_at',
    ])
    .where('id', '=', id)
    .execute();
  return row;
}

/**
 * Sign-in with a saved Sovereign Key. The key is looked up by its SHA-256 (a unique column), then
 * compared in constant time; an erased sovereign has no key left to match.
 */
export async function sovereignByKey(
  ctx: AppContext,
  key: string,
): Promise<{ id: string; tag: string } | undefined> {
  if (!/^sk_[A-Za-z0-9_-]{43}$/.test(key)) return undefined;
  const [row] = await ctx.db.kysely
    .selectFrom('sovereigns')
    .select(['id', 'tag', 'key_hash'])
    .where('key_hash', '=', sha256Hex(key))
    .where('erased_at', 'is', null)
    .execute();
  return row && matchesHash(key, row.key_hash) ? { id: row.id, tag: row.tag } : undefined;
}

/** Records a sign-in or sign-out step. Its subject names no one: a session log is not a tracker. */
export async function recordSessionStep(
  ctx: AppContext,
  step: 'identity.sign_in' | 'identity.sign_out' | 'identity.reconcile',
) {
  return ctx.db.transaction((tx) => recordReceipt(tx, { step, subject: 'session', at: ctx.clock.now() }));
}
