/**
 * The transparency log over stored receipts: per-UTC-day Merkle trees, inclusion proofs (against
 * the signed anchor once a day is sealed, against a freshly signed head while it is open), anchors,
 * sealing (a job exactly one process performs) and the whole-chain consistency check.
 * All hashing and signing is shared/ledger's; this file only reads and writes PostgreSQL.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import {
  EMPTY_TREE_ROOT_HEX,
  GENESIS_ANCHOR_HASH,
  anchorHash,
  buildTree,
  inclusionProof,
  receiptLeafHash,
  signAnchor,
  signCheckpoint,
  subjectDigest,
  toHex,
  verifyAnchorChain,
  verifyAnchor,
} from '../../shared/ledger/index.ts';
import type { Anchor, Ed25519Jwk, MerkleTree, WireInclusionProof } from '../../shared/ledger/index.ts';
import { utcDay } from '../../shared/time.ts';

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

export function publicKey(ctx: Pick<AppContext, 'keys'>): Ed25519Jwk {
  return ctx.keys.signing.publicJwk as unknown as Ed25519Jwk;
}

// ------------------------------------------------------------------ receipts

export interface ReceiptRow {
  id: string;
  step: string;
  subject: string | null;
  subject_salt: string | null;
  subject_digest: string;
  subject_redacted_at: string | null;
  recorded_at: string;
  leaf_hash: string;
  log_date: string;
  leaf_index: number;
}

const RECEIPT_COLUMNS = `id, step, subject, subject_salt, subject_digest,
  to_char(subject_redacted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as subject_redacted_at,
  to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at,
  leaf_hash, to_char(log_date, 'YYYY-MM-DD') as log_date, leaf_index`;

function normalise(row: ReceiptRow): ReceiptRow {
  return { ...row, leaf_index: Number(row.leaf_index) };
}

export async function receiptById(sql: Sql, id: string): Promise<ReceiptRow | null> {
  const [row] = await sql.query<ReceiptRow>(`select ${RECEIPT_COLUMNS} from receipts where id = $1`, [id]);
  return row ? normalise(row) : null;
}

export async function receiptsOfSubject(sql: Sql, subject: string, limit = 100): Promise<ReceiptRow[]> {
  const rows = await sql.query<ReceiptRow>(`select ${RECEIPT_COLUMNS} from receipts where subject = $1 order by recorded_at, id limit $2`, [subject, limit]);
  return rows.map(normalise);
}

export async function recentReceipts(sql: Sql, options: { limit: number; before?: string }): Promise<ReceiptRow[]> {
  const rows = options.before
    ? await sql.query<ReceiptRow>(`select ${RECEIPT_COLUMNS} from receipts where id < $1 order by id desc limit $2`, [options.before, options.limit])
    : await sql.query<ReceiptRow>(`select ${RECEIPT_COLUMNS} from receipts order by id desc limit $1`, [options.limit]);
  return rows.map(normalise);
}

export async function neighbours(sql: Sql, row: ReceiptRow): Promise<{ previous: string | null; next: string | null }> {
  const rows = await sql.query<{ id: string; leaf_index: number }>(
    `select id, leaf_index from receipts where log_date = $1 and leaf_index in ($2, $3)`,
    [row.log_date, row.leaf_index - 1, row.leaf_index + 1],
  );
  const at = (i: number) => rows.find((r) => Number(r.leaf_index) === i)?.id ?? null;
  return { previous: at(row.leaf_index - 1), next: at(row.leaf_index + 1) };
}

// ------------------------------------------------------------------ days and trees

export interface DayState {
  date: string;
  /** leaves handed out (committed or in flight) */
  size: number;
  sealed: boolean;
}

export async function dayState(sql: Sql, date: string): Promise<DayState | null> {
  const [row] = await sql.query<{ date: string; size: number; sealed_at: string | null }>(
    `select to_char(date, 'YYYY-MM-DD') as date, size, sealed_at from log_days where date = $1`,
    [date],
  );
  return row ? { date: row.date, size: Number(row.size), sealed: row.sealed_at !== null } : null;
}

export interface DayLeaves {
  ids: string[];
  hashes: string[];
}

/**
 * The committed leaves of a day in leaf_index order, up to the first gap: a leaf whose transaction
 * is still in flight ends the prefix, so an open day's tree only ever grows by appending.
 */
export async function dayLeaves(sql: Sql, date: string): Promise<DayLeaves> {
  const rows = await sql.query<{ id: string; leaf_hash: string; leaf_index: number }>(
    'select id, leaf_hash, leaf_index from receipts where log_date = $1 order by leaf_index',
    [date],
  );
  const ids: string[] = [];
  const hashes: string[] = [];
  for (const row of rows) {
    if (Number(row.leaf_index) !== ids.length) break;
    ids.push(row.id);
    hashes.push(row.leaf_hash);
  }
  return { ids, hashes };
}

/** Built trees of sealed days never change: keep a few in memory (bounded). */
const SEALED_TREES = new Map<string, { tree: MerkleTree; ids: string[] }>();
const MAX_CACHED_TREES = 32;

export interface DayTree {
  date: string;
  tree: MerkleTree;
  ids: string[];
  sealed: boolean;
}

/** Open days grow by appending: keep their committed prefix and tree, read only newer leaves. */
const OPEN_DAYS = new Map<string, { ids: string[]; hashes: string[]; tree: MerkleTree }>();
const MAX_OPEN_DAYS = 8;

export async function dayTree(ctx: Pick<AppContext, 'db'>, date: string, state?: DayState | null): Promise<DayTree | null> {
  const day = state === undefined ? await dayState(ctx.db, date) : state;
  if (!day) return null;
  const cacheKey = `${dbIdentity(ctx.db)}:${date}`;
  if (day.sealed) {
    const hit = SEALED_TREES.get(cacheKey);
    if (hit) return { date, tree: hit.tree, ids: hit.ids, sealed: true };
  }
  const cached = OPEN_DAYS.get(cacheKey);
  const ids = cached ? [...cached.ids] : [];
  const hashes = cached ? [...cached.hashes] : [];
  const rows = await ctx.db.query<{ id: string; leaf_hash: string; leaf_index: number }>(
    'select id, leaf_hash, leaf_index from receipts where log_date = $1 and leaf_index >= $2 order by leaf_index',
    [date, ids.length],
  );
  for (const row of rows) {
    if (Number(row.leaf_index) !== ids.length) break;
    ids.push(row.id);
    hashes.push(row.leaf_hash);
  }
  const tree = cached && cached.ids.length === ids.length ? cached.tree : await buildTree(hashes);
  if (day.sealed && ids.length === day.size) {
    OPEN_DAYS.delete(cacheKey);
    if (SEALED_TREES.size >= MAX_CACHED_TREES) SEALED_TREES.delete(SEALED_TREES.keys().next().value as string);
    SEALED_TREES.set(cacheKey, { tree, ids });
  } else {
    OPEN_DAYS.delete(cacheKey);
    if (OPEN_DAYS.size >= MAX_OPEN_DAYS) OPEN_DAYS.delete(OPEN_DAYS.keys().next().value as string);
    OPEN_DAYS.set(cacheKey, { ids, hashes, tree });
  }
  return { date, tree, ids, sealed: day.sealed };
}

/** Distinguishes databases in one process (tests open many); objects get a stable number. */
const DB_IDS = new WeakMap<object, number>();
let nextDbId = 1;
function dbIdentity(db: object): number {
  let id = DB_IDS.get(db);
  if (id === undefined) {
    id = nextDbId++;
    DB_IDS.set(db, id);
  }
  return id;
}

// ------------------------------------------------------------------ anchors

interface AnchorRow {
  date: string;
  tree_size: number;
  root_hash: string;
  previous_anchor_hash: string;
  anchor_hash: string;
  key_id: string;
  signature: string;
  checkpoint: string;
  sealed_at: string;
}

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
    tree_size: Number(row.tree_size),
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

// ------------------------------------------------------------------ proofs

export interface SignedHead {
  date: string;
  tree_size: number;
  root_hash: string;
  /** C2SP checkpoint of the open day's current tree, signed now by the log key */
  checkpoint: string;
}

/** The RFC 9162 wire proof, with the anchor (sealed day) or the signed head (open day) it is against. */
export interface InclusionProofView extends WireInclusionProof {
  anchor: Anchor | null;
  /** for an open day: the signed head the proof is against */
  head: SignedHead | null;
}

export async function signedHead(ctx: AppContext, date: string, tree: MerkleTree): Promise<SignedHead> {
  const root_hash = tree.size === 0 ? EMPTY_TREE_ROOT_HEX : toHex(tree.root);
  const keyName = logKeyName(ctx);
  const checkpoint = await signCheckpoint({ origin: `${keyName}/${date}`, tree_size: tree.size, root_hash }, privateKey(ctx), keyName);
  return { date, tree_size: tree.size, root_hash, checkpoint };
}

/**
 * The RFC 9162 inclusion proof of a receipt: against the anchor when its day is sealed, else
 * against the current tree with a freshly signed head. Null when the leaf is not yet part of the
 * committed prefix (an earlier leaf of the day is still being written).
 */
export async function proofFor(ctx: AppContext, row: ReceiptRow): Promise<InclusionProofView | null> {
  const day = await dayTree(ctx, row.log_date);
  if (!day || row.leaf_index >= day.tree.size) return null;
  const anchor = day.sealed ? await anchorOf(ctx.db, row.log_date) : null;
  const path = await inclusionProof(day.tree, row.leaf_index);
  const root_hash = toHex(day.tree.root);
  return {
    date: row.log_date,
    leaf_index: row.leaf_index,
    tree_size: day.tree.size,
    leaf_hash: row.leaf_hash,
    inclusion_path: path.map(toHex),
    root_hash,
    sealed: anchor !== null,
    anchor: anchor ? wireAnchor(anchor) : null,
    head: anchor ? null : await signedHead(ctx, row.log_date, day.tree),
  };
}

// ------------------------------------------------------------------ sealing

export interface SealResult {
  /** false when another process holds the sealing lock right now */
  ran: boolean;
  sealed: StoredAnchor[];
}

/**
 * Seals every day before today (UTC, by ctx.clock) that has leaves and no anchor, in date order,
 * chaining each anchor to the previous one. Exactly one process does it at a time:
 * `pg_try_advisory_xact_lock` inside the transaction (others skip), and `log_days.sealed_at` plus
 * the anchors primary key make a repeated run a no-op. Setting sealed_at takes the day's row lock,
 * so a receipt still being added to that day commits first (and is sealed in) or moves to the next
 * day. A sealed day never changes.
 */
export async function sealDueDays(ctx: AppContext): Promise<SealResult> {
  const today = utcDay(ctx.clock.now());
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [SEAL_LOCK]);
    if (!lock?.locked) return { ran: false, sealed: [] };
    const due = await tx.query<{ date: string }>(
      `select to_char(date, 'YYYY-MM-DD') as date from log_days where date < $1 and sealed_at is null and size > 0 order by date`,
      [today],
    );
    const sealed: StoredAnchor[] = [];
    if (due.length === 0) return { ran: true, sealed };
    const [last] = await tx.query<{ anchor_hash: string }>('select anchor_hash from anchors order by date desc limit 1');
    let previous = last?.anchor_hash ?? GENESIS_ANCHOR_HASH;
    const keyName = logKeyName(ctx);
    const now = ctx.clock.now().toISOString();
    for (const { date } of due) {
      const [day] = await tx.query<{ size: number }>(
        'update log_days set sealed_at = $2 where date = $1 and sealed_at is null returning size',
        [date, now],
      );
      if (!day) continue;
      const leaves = await dayLeaves(tx, date);
      if (leaves.hashes.length !== Number(day.size)) {
        throw new Error(`day ${date} has ${leaves.hashes.length} committed leaves of ${day.size}`);
      }
      const tree = await buildTree(leaves.hashes);
      const anchor = await signAnchor(
        { date, tree_size: tree.size, root_hash: toHex(tree.root), previous_anchor_hash: previous },
        privateKey(ctx),
        keyName,
      );
      const hash = await anchorHash(anchor);
      await tx.query(
        `insert into anchors (date, tree_size, root_hash, previous_anchor_hash, anchor_hash, key_id, signature, checkpoint, sealed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [date, anchor.tree_size, anchor.root_hash, anchor.previous_anchor_hash, hash, anchor.key_id, anchor.signature, anchor.checkpoint, now],
      );
      sealed.push({ ...anchor, anchor_hash: hash, sealed_at: now });
      previous = hash;
    }
    return { ran: true, sealed };
  });
}

// ------------------------------------------------------------------ consistency

export interface ChainCheck {
  ok: boolean;
  anchors: number;
  receipts_checked: number;
  head: string | null;
  problems: string[];
}

/**
 * The whole-chain consistency check (for /api/self-trials): the anchors link by hash from genesis,
 * each verifies with the log key, each root equals the tree rebuilt from the stored leaves, and
 * every stored receipt's leaf recomputes from its fields (and its subject from the digest, unless
 * erased).
 */
export async function checkLogConsistency(ctx: AppContext): Promise<ChainCheck> {
  const problems: string[] = [];
  const anchors = await allAnchors(ctx.db);
  const key = publicKey(ctx);
  const chain = await verifyAnchorChain(anchors.map(wireAnchor), { publicJwk: key });
  if (!chain.ok) problems.push(`anchor chain: ${chain.reason}`);
  const keyName = logKeyName(ctx);
  for (const anchor of anchors) {
    const v = await verifyAnchor(wireAnchor(anchor), key, keyName);
    if (!v.ok) problems.push(`anchor ${anchor.date}: ${v.reason}`);
    if ((await anchorHash(anchor)) !== anchor.anchor_hash) problems.push(`anchor ${anchor.date}: stored hash differs`);
    const leaves = await dayLeaves(ctx.db, anchor.date);
    const tree = await buildTree(leaves.hashes);
    if (tree.size !== anchor.tree_size || toHex(tree.root) !== anchor.root_hash) problems.push(`anchor ${anchor.date}: stored leaves do not rebuild its root`);
  }
  let checked = 0;
  let after = '';
  for (;;) {
    const rows = await ctx.db.query<ReceiptRow>(`select ${RECEIPT_COLUMNS} from receipts where id > $1 order by id limit 1000`, [after]);
    if (rows.length === 0) break;
    for (const row of rows) {
      checked++;
      const leaf = toHex(await receiptLeafHash({ id: row.id, step: row.step, subject_digest: row.subject_digest, recorded_at: row.recorded_at }));
      if (leaf !== row.leaf_hash) problems.push(`receipt ${row.id}: leaf does not recompute`);
      if (row.subject !== null && row.subject_salt !== null && (await subjectDigest(row.subject, row.subject_salt)) !== row.subject_digest) {
        problems.push(`receipt ${row.id}: subject does not match its digest`);
      }
      if (problems.length > 50) break;
    }
    after = rows[rows.length - 1].id;
    if (problems.length > 50) break;
  }
  return { ok: problems.length === 0, anchors: anchors.length, receipts_checked: checked, head: chain.ok ? chain.head : null, problems };
}
