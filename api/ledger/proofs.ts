/**
 * Inclusion proofs: against the signed anchor once a day is sealed, against a freshly signed head
 * while it is open.
 */
import type { AppContext } from '../context.ts';
import { inclusionProof, signCheckpoint, toHex } from '../../shared/ledger/index.ts';
import type { Anchor, WireInclusionProof } from '../../shared/ledger/index.ts';
import { anchorOf, wireAnchor, type StoredAnchor } from './anchors.ts';
import { storedInclusionPath, storedRoot, storedTree } from './tiles.ts';
import { builtHead, dayTree } from './log-days.ts';
import { logKeyName, privateKey, type ReceiptRow } from './log.ts';

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

export async function signedHead(
  ctx: AppContext,
  date: string,
  tree: { size: number; root_hash: string },
): Promise<SignedHead> {
  const keyName = logKeyName(ctx);
  const checkpoint = await signCheckpoint(
    { origin: `${keyName}/${date}`, tree_size: tree.size, root_hash: tree.root_hash },
    privateKey(ctx),
    keyName,
  );
  return { date, tree_size: tree.size, root_hash: tree.root_hash, checkpoint };
}

/**
 * The RFC 9162 inclusion proof of a receipt: against the anchor when its day is sealed, else
 * against the current tree with a freshly signed head. The path and the root come from the day's
 * stored interior (tiles.ts): O(log n) reads whatever the day's size. Null when the leaf is not
 * part of the tree the reader sees (its day's row was read before the receipt's commit).
 */
export async function proofFor(ctx: AppContext, row: ReceiptRow): Promise<InclusionProofView | null> {
  const tree = await storedTree(ctx.db, row.log_date);
  if (!tree || row.leaf_index >= tree.size) return null;
  if (tree.frontier === null) return builtProof(ctx, row);
  const stored = { ...tree, frontier: tree.frontier };
  const [path, anchor] = await Promise.all([
    storedInclusionPath(ctx.db, stored, row.leaf_index),
    tree.sealed ? anchorOf(ctx.db, row.log_date) : null,
  ]);
  const head = { size: tree.size, root_hash: toHex(storedRoot(stored)) };
  return proofView(ctx, row, head, path, anchor);
}

/** The same proof from a tree built from the day's leaves: a day logged before tiles, until the `ledger.tile` job has tiled it. */
async function builtProof(ctx: AppContext, row: ReceiptRow): Promise<InclusionProofView | null> {
  const day = await dayTree(ctx, row.log_date);
  if (!day || row.leaf_index >= day.tree.size) return null;
  const anchor = day.sealed ? await anchorOf(ctx.db, row.log_date) : null;
  const path = await inclusionProof(day.tree, row.leaf_index);
  return proofView(ctx, row, builtHead(day.tree), path, anchor);
}

async function proofView(
  ctx: AppContext,
  row: ReceiptRow,
  head: { size: number; root_hash: string },
  path: readonly Uint8Array[],
  anchor: StoredAnchor | null,
): Promise<InclusionProofView> {
  return {
    date: row.log_date,
    leaf_index: row.leaf_index,
    tree_size: head.size,
    leaf_hash: row.leaf_hash,
    inclusion_path: path.map(toHex),
    root_hash: head.root_hash,
    sealed: anchor !== null,
    anchor: anchor ? wireAnchor(anchor) : null,
    head: anchor ? null : await signedHead(ctx, row.log_date, head),
  };
}
