import { GENESIS_ANCHOR_HASH, generateLogKey, signAnchor } from '../../../shared/ledger/anchor.ts';
import { receiptLeafHash, subjectDigest, toHex } from '../../../shared/ledger/hash.ts';
import { buildTree } from '../../../shared/ledger/merkle.ts';
import { inclusionProof } from '../../../shared/ledger/inclusion.ts';
import type { WireInclusionProof, WireReceipt } from '../../../shared/ledger/verifier.ts';
import { at } from '../../helpers/elements.ts';

/**
 * One day of the log for the verifier's tests (verifier.test.ts, verifier-rejects.test.ts): `n`
 * receipts with salted subjects, their tree, the day's anchor signed with `keys`, and the wire
 * proof of any leaf, sealed (anchor inside) or not.
 */
export const keys = await generateLogKey();
/** Another log key, for forged and foreign signatures. */
export const other = await generateLogKey();
export const KEY_NAME = 'civitas.example/log';
export const DATE = '2026-11-22';

export async function day(n: number) {
  const receipts: WireReceipt[] = [];
  for (let i = 0; i < n; i++) {
    const subject =
      i % 3 ? `imprint:${i}` : `sovereign:${(i * 4099).toString(16).padStart(4, '0').slice(-4)}`;
    const subject_salt = (i % 256).toString(16).padStart(2, '0').repeat(16);
    const base = {
      id: `rcpt_01JD${String(i).padStart(22, '0')}`,
      step: i % 2 ? 'imprint.accepted' : 'order.recorded',
      subject,
      subject_salt,
      subject_digest: await subjectDigest(subject, subject_salt),
      subject_redacted: false,
      recorded_at: `2026-11-22T10:00:${String(i % 60).padStart(2, '0')}.000Z`,
    };
    receipts.push({
      ...base,
      leaf_hash: toHex(await receiptLeafHash(base)),
      log: { date: DATE, leaf_index: i },
      change_status: i % 2 ? null : 'accepted',
    });
  }
  const tree = await buildTree(receipts.map((r) => r.leaf_hash));
  const anchor = await signAnchor(
    { date: DATE, tree_size: n, root_hash: toHex(tree.root), previous_anchor_hash: GENESIS_ANCHOR_HASH },
    keys.privateJwk,
    KEY_NAME,
  );
  const proofOf = async (i: number, sealed: boolean): Promise<WireInclusionProof> => ({
    date: DATE,
    leaf_index: i,
    tree_size: n,
    leaf_hash: at(receipts, i).leaf_hash,
    inclusion_path: (await inclusionProof(tree, i)).map(toHex),
    root_hash: toHex(tree.root),
    sealed,
    ...(sealed ? { anchor } : {}),
  });
  return { receipts, tree, anchor, proofOf };
}

/** The names of the checks that failed. */
export const failing = (r: { checks: { name: string; ok: boolean }[] }) =>
  r.checks.filter((c) => !c.ok).map((c) => c.name);
