/**
 * Inclusion proofs: against the signed anchor once a day is sealed, against a freshly signed head
 * while it is open.
 */
import type { AppContext } from '../context.ts';
import { EMPTY_TREE_ROOT_HEX, inclusionProof, signCheckpoint, toHex } from '../../shared/ledger/index.ts';
import type { Anchor, MerkleTree, WireInclusionProof } from '../../shared/ledger/index.ts';
import { anchorOf, wireAnchor } from './anchors.ts';
import { dayTree } from './log-days.ts';
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

export async function signedHead(ctx: AppContext, date: string, tree: MerkleTree): Promise<SignedHead> {
  const root_hash = tree.size === 0 ? EMPTY_TREE_ROOT_HEX : toHex(tree.root);
  const keyName = logKeyName(ctx);
  const checkpoint = await signCheckpoint(
    { origin: `${keyName}/${date}`, tree_size: tree.size, root_hash },
    privateKey(ctx),
    keyName,
  );
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
