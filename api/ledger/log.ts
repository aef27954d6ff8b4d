/**
 * The transparency log over stored receipts: per-UTC-day Merkle trees, inclusion proofs (against
 * the signed anchor once a day is sealed, against a freshly signed head while it is open), anchors,
 * sealing (a job exactly one process performs) and the whole-chain consistency check.
 * All hashing and signing is shared/ledger's; this file only reads and writes PostgreSQL.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { Ed25519Jwk } from '../../shared/ledger/index.ts';
import { verifyingKey } from '../keys.ts';
import { sql as fragment } from 'kysely';
import type { RowOf } from '../db/rows.ts';
import type { Receipt } from './entities.ts';

/** pg_try_advisory_xact_lock key of the sealing job. */
export const SEAL_LOCK = 7_212_005;

/** The checkpoint key name: `<origin host>/log`, stable for the deployment. */
export function logKeyName(ctx: Pick<AppContext, 'config'>): string {
  let host = 'civitas';
  try {
    host = new URL(ctx.config.origin).host || host;
  } catch {
    /* keep the default */
  }
  return `${host}/log`;
}

export function privateKey(ctx: Pick<AppContext, 'keys'>): Ed25519Jwk {
  return ctx.keys.signing.privateJwk as unknown as Ed25519Jwk;
}

/**
 * The public key an anchor (or checkpoint) naming `keyId` verifies with: the key that sealed it,
 * active or retired. An unknown or absent key_id gets the active key, which then refuses it.
 */
export async function anchorKey(ctx: Pick<AppContext, 'keys' | 'db' | 'clock'>, keyId?: string | null) {
  return ((await verifyingKey(ctx, keyId)) ?? ctx.keys.signing.publicJwk) as unknown as Ed25519Jwk;
}

/** The verifying keys covering every key id given (re-read once if one is new), for a run of anchors. */
export async function anchorKeys(
  ctx: Pick<AppContext, 'keys' | 'db' | 'clock'>,
  keyIds: readonly string[],
): Promise<Ed25519Jwk[]> {
  const missing = keyIds.find((kid) => !ctx.keys.verifying.has(kid));
  if (missing !== undefined) await verifyingKey(ctx, missing);
  return [...ctx.keys.verifying.values()] as unknown as Ed25519Jwk[];
}

/** A timestamp column as the answers carry it, ISO 8601 UTC text to the millisecond (a typed query's select). */
export const isoText = (column: string) =>
  fragment<string>`to_char(${fragment.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A date column as YYYY-MM-DD (a typed query's select). */
export const dayText = (column: string) => fragment<string>`to_char(${fragment.ref(column)}, 'YYYY-MM-DD')`;

/** A receipt as RECEIPT_COLUMNS selects it: every column, its times as ISO text. */
export type ReceiptRow = RowOf<typeof Receipt>;

export const RECEIPT_COLUMNS = `id, step, subject, subject_salt, subject_digest,
  to_char(subject_redacted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as subject_redacted_at,
  to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at,
  leaf_hash, to_char(log_date, 'YYYY-MM-DD') as log_date, leaf_index`;

function normalise(row: ReceiptRow): ReceiptRow {
  return { ...row, leaf_index: row.leaf_index };
}

export async function receiptById(sql: Sql, id: string): Promise<ReceiptRow | null> {
  const [row] = await sql.query<ReceiptRow>(`select ${RECEIPT_COLUMNS} from receipts where id = $1`, [id]);
  return row ? normalise(row) : null;
}

export async function receiptsOfSubject(sql: Sql, subject: string, limit = 100): Promise<ReceiptRow[]> {
  const rows = await sql.query<ReceiptRow>(
    `select ${RECEIPT_COLUMNS} from receipts where subject = $1 order by recorded_at, id limit $2`,
    [subject, limit],
  );
  return rows.map(normalise);
}

export async function neighbours(
  sql: Sql,
  row: ReceiptRow,
): Promise<{ previous: string | null; next: string | null }> {
  const rows = await sql.kysely
    .selectFrom('receipts')
    .select(['id', 'leaf_index'])
    .where('log_date', '=', row.log_date)
    .where('leaf_index', 'in', [row.leaf_index - 1, row.leaf_index + 1])
    .execute();
  const at = (i: number) => rows.find((r) => r.leaf_index === i)?.id ?? null;
  return { previous: at(row.leaf_index - 1), next: at(row.leaf_index + 1) };
}
