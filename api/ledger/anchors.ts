/**
 * Anchors: the signed, chained root of each sealed UTC day, as stored and as published.
 */
import type { Sql } from '../db/database.ts';
import type { Anchor } from '../../shared/ledger/index.ts';
import type { RowOf } from '../db/rows.ts';
import type { Anchor as AnchorEntity } from './entities.ts';

/** An anchor as ANCHOR_COLUMNS selects it: every column, sealed_at as ISO text. */
type AnchorRow = RowOf<typeof AnchorEntity>;

const ANCHOR_COLUMNS = `to_char(date, 'YYYY-MM-DD') as date, tree_size, root_hash, previous_anchor_hash, anchor_hash, key_id,
  signature, checkpoint, to_char(sealed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as sealed_at`;

/** The anchor wire shape (DESIGN.md section 3) plus its hash and when it was sealed. */
export interface StoredAnchor extends Anchor {
  anchor_hash: string;
  sealed_at: string;
}

function toAnchor(row: AnchorRow): StoredAnchor {
  return {
    date: row.date,
    tree_size: row.tree_size,
    root_hash: row.root_hash,
    previous_anchor_hash: row.previous_anchor_hash,
    signature: row.signature,
    key_id: row.key_id,
    checkpoint: row.checkpoint,
    anchor_hash: row.anchor_hash,
    sealed_at: row.sealed_at,
  };
}

/** The wire anchor only (what the verifier takes). */
export function wireAnchor(a: StoredAnchor): Anchor {
  return {
    date: a.date,
    tree_size: a.tree_size,
    root_hash: a.root_hash,
    previous_anchor_hash: a.previous_anchor_hash,
    signature: a.signature,
    key_id: a.key_id,
    checkpoint: a.checkpoint,
  };
}

export async function anchorOf(sql: Sql, date: string): Promise<StoredAnchor | null> {
  const [row] = await sql.query<AnchorRow>(`select ${ANCHOR_COLUMNS} from anchors where date = $1`, [date]);
  return row ? toAnchor(row) : null;
}

export async function allAnchors(sql: Sql): Promise<StoredAnchor[]> {
  const rows = await sql.query<AnchorRow>(`select ${ANCHOR_COLUMNS} from anchors order by date`);
  return rows.map(toAnchor);
}

/** The newest `limit` anchors, newest first (the witness feed: a feed lists the newest, bounded). */
export async function newestAnchors(sql: Sql, limit: number): Promise<StoredAnchor[]> {
  const rows = await sql.query<AnchorRow>(
    `select ${ANCHOR_COLUMNS} from anchors order by date desc limit $1`,
    [limit],
  );
  return rows.map(toAnchor);
}

/** The anchors sealed after `date`, oldest first (the chain past its verified point). */
export async function anchorsAfter(sql: Sql, date: string): Promise<StoredAnchor[]> {
  const rows = await sql.query<AnchorRow>(
    `select ${ANCHOR_COLUMNS} from anchors where date > $1::date order by date`,
    [date],
  );
  return rows.map(toAnchor);
}

/** Up to `limit` anchors where `where` holds, in `orderBy` (a page read with api/paging.ts's keyClause). */
export async function anchorRows(
  sql: Sql,
  where: string,
  orderBy: string,
  params: unknown[],
  limit: number,
): Promise<StoredAnchor[]> {
  const rows = await sql.query<AnchorRow>(
    `select ${ANCHOR_COLUMNS} from anchors where ${where} order by ${orderBy} limit ${Math.trunc(limit)}`,
    params,
  );
  return rows.map(toAnchor);
}
