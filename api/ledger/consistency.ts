/**
 * The whole-chain consistency check: every sealed day's tree, anchor and link to the one before.
 */
import type { AppContext } from '../context.ts';
import {
  anchorHash,
  receiptLeafHash,
  subjectDigest,
  toHex,
  verifyAnchorChain,
  verifyAnchor,
} from '../../shared/ledger/index.ts';
import { allAnchors, wireAnchor } from './anchors.ts';
import { streamedRoot } from './tiling.ts';
import { RECEIPT_COLUMNS, anchorKey, anchorKeys, logKeyName, type ReceiptRow } from './log.ts';
import { one } from '../db/rows.ts';

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
  const keys = await anchorKeys(
    ctx,
    anchors.map((a) => a.key_id),
  );
  const chain = await verifyAnchorChain(anchors.map(wireAnchor), { publicJwks: keys });
  if (!chain.ok) problems.push(`anchor chain: ${chain.reason}`);
  const keyName = logKeyName(ctx);
  for (const anchor of anchors) {
    const v = await verifyAnchor(wireAnchor(anchor), await anchorKey(ctx, anchor.key_id), keyName);
    if (!v.ok) problems.push(`anchor ${anchor.date}: ${v.reason}`);
    if ((await anchorHash(anchor)) !== anchor.anchor_hash)
      problems.push(`anchor ${anchor.date}: stored hash differs`);
    const root = await streamedRoot(ctx.db, anchor.date, anchor.tree_size).catch(() => null);
    if (
      root === null ||
      (await committedLeaves(ctx, anchor.date)) !== anchor.tree_size ||
      toHex(root) !== anchor.root_hash
    )
      problems.push(`anchor ${anchor.date}: stored leaves do not rebuild its root`);
  }
  let checked = 0;
  let after = '';
  for (;;) {
    const rows = await ctx.db.query<ReceiptRow>(
      `select ${RECEIPT_COLUMNS} from receipts where id > $1 order by id limit 1000`,
      [after],
    );
    const last = rows.at(-1);
    if (last === undefined) break;
    for (const row of rows) {
      checked++;
      const leaf = toHex(
        await receiptLeafHash({
          id: row.id,
          step: row.step,
          subject_digest: row.subject_digest,
          recorded_at: row.recorded_at,
        }),
      );
      if (leaf !== row.leaf_hash) problems.push(`receipt ${row.id}: leaf does not recompute`);
      if (
        row.subject !== null &&
        row.subject_salt !== null &&
        (await subjectDigest(row.subject, row.subject_salt)) !== row.subject_digest
      ) {
        problems.push(`receipt ${row.id}: subject does not match its digest`);
      }
      if (problems.length > 50) break;
    }
    after = last.id;
    if (problems.length > 50) break;
  }
  return {
    ok: problems.length === 0,
    anchors: anchors.length,
    receipts_checked: checked,
    head: chain.ok ? chain.head : null,
    problems,
  };
}

/** How many leaves the day holds (a leaf added past the anchor's size is as wrong as one missing). */
async function committedLeaves(ctx: AppContext, date: string): Promise<number> {
  const row = one(
    await ctx.db.kysely
      .selectFrom('receipts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('log_date', '=', date)
      .execute(),
  );
  return row.n;
}
