/**
 * The stored tree interior on a real database: proofs from tiles equal proofs from a full rebuild
 * across tile boundaries, tiles stay exact under concurrent batches, sealing from tiles signs what
 * a rebuild would, a damaged tile is caught, and a day logged before tiles is tiled by its job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import {
  claimLeaves,
  claimLeavesAt,
  draftReceipts,
  recordOnClaim,
  recordReceipts,
  type ClaimedLeaves,
  type ReceiptInput,
} from '../../../api/ledger/receipts.ts';
import { dayLeaves } from '../../../api/ledger/log-days.ts';
import { receiptById } from '../../../api/ledger/log.ts';
import { proofFor } from '../../../api/ledger/proofs.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { tileUntiledDays } from '../../../api/ledger/tiling.ts';
import { appendToTree } from '../../../api/ledger/tile-math.ts';
import { anchorOf } from '../../../api/ledger/anchors.ts';
import { logKeyName, privateKey } from '../../../api/ledger/log.ts';
import { buildTree, inclusionProof, signAnchor, toHex } from '../../../shared/ledger/index.ts';
import { at } from '../../helpers/elements.ts';
import type { Sql } from '../../../api/db/sql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const ctx = () => t.app.civitas;
const inputs = (date: string, n: number, tag: string): ReceiptInput[] =>
  Array.from({ length: n }, (_, i) => ({
    step: 'test.tile',
    subject: `tile:${tag}:${i}`,
    at: new Date(`${date}T10:00:00Z`),
  }));

async function append(date: string, n: number, tag: string) {
  return t.app.civitas.db.transaction((tx) => recordReceipts(tx, inputs(date, n, tag)));
}

/** Every proof of the listed leaves from the tiles, against the same proofs from the rebuilt tree. */
async function expectProofsAsRebuilt(date: string, indexes?: number[]) {
  const leaves = await dayLeaves(ctx().db, date);
  const tree = await buildTree(leaves.hashes);
  for (const i of indexes ?? leaves.ids.map((_, k) => k)) {
    const proof = (await proofFor(ctx(), (await receiptById(ctx().db, at(leaves.ids, i)))!))!;
    expect(proof.tree_size).toBe(tree.size);
    expect(proof.root_hash).toBe(toHex(tree.root));
    expect(proof.inclusion_path).toEqual((await inclusionProof(tree, i)).map(toHex));
  }
}

/** The day's stored tiles and frontier, against the ones a single append of all its leaves makes. */
async function expectTilesAsComputed(date: string) {
  const leaves = await dayLeaves(ctx().db, date);
  const computed = appendToTree(
    0,
    new Uint8Array(0),
    leaves.hashes.map((h) => Buffer.from(h, 'hex')),
  );
  const rows = await ctx().db.query<{
    level: number;
    idx: number | string;
    hashes: string;
    frontier: string;
  }>(
    `select t.level, t.idx, encode(t.hashes, 'hex') as hashes, encode(d.frontier, 'hex') as frontier
       from log_tiles t join log_days d on d.date = t.date where t.date = $1 order by t.level, t.idx`,
    [date],
  );
  const expected = [...computed.tiles].sort((a, b) => a.level - b.level || a.index - b.index);
  expect(rows.map((r) => `${r.level}/${Number(r.idx)}:${r.hashes}`)).toEqual(
    expected.map((tile) => `${tile.level}/${tile.index}:${tile.hashes.toString('hex')}`),
  );
  expect(at(rows, 0).frontier).toBe(computed.frontier.toString('hex'));
}

describe('the tree interior kept as tiles', () => {
  it('proves every leaf as a full rebuild would, across tile boundaries', async () => {
    const date = '2026-10-01';
    const checkpoints = [1, 2, 3, 5, 8, 13, 255, 256, 257, 511, 512, 513, 700];
    let size = 0;
    for (const target of checkpoints) {
      while (size < target) {
        const n = Math.min(target - size, 1 + (size % 97));
        await append(date, n, `${size}`);
        size += n;
      }
      const sample = [0, 1, 2, 127, 128, 254, 255, 256, 257, 511, 512, target - 2, target - 1];
      await expectProofsAsRebuilt(
        date,
        target <= 13 ? undefined : [...new Set(sample)].filter((i) => i >= 0 && i < target),
      );
    }
    await expectTilesAsComputed(date);
  });

  it('stays exact under concurrent batches', async () => {
    const date = '2026-10-02';
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let round = 0; round < 6; round++)
          await append(date, 1 + ((w * 7 + round) % 40), `w${w}r${round}`);
      }),
    );
    await expectTilesAsComputed(date);
    await expectProofsAsRebuilt(date, [0, 100, 255, 256]);
  });

  it('records on a run claimed before its leaves: the rest given back, or all of it when they fall on another day', async () => {
    const date = '2026-10-05';
    await append(date, 3, 'before');
    // The Record's batch: 8 claimed, 5 used, 3 given back under the same row lock.
    const used = await ctx().db.transaction(async (tx) => {
      const claim = await claimLeaves(tx, date, 8);
      return recordOnClaim(tx, claim, draftReceipts(inputs(date, 5, 'claimed')));
    });
    expect(used.receipts.map((r) => r.log)).toEqual(
      [3, 4, 5, 6, 7].map((leaf_index) => ({ date, leaf_index })),
    );
    // Claimed on this day, drafted on the next (a batch across midnight): all given back here, recorded there.
    const next = '2026-10-06';
    const moved = await ctx().db.transaction(async (tx) => {
      const claim = await claimLeaves(tx, date, 4);
      return recordOnClaim(tx, claim, draftReceipts(inputs(next, 2, 'moved')));
    });
    expect(moved.receipts.map((r) => r.log)).toEqual(
      [0, 1].map((leaf_index) => ({ date: next, leaf_index })),
    );
    expect(moved.end).toBeUndefined(); // recorded on another day than claimed: no end to claim at
    await append(date, 2, 'after');
    const sizes = await ctx().db.query<{ date: string; size: number }>(
      "select to_char(date, 'YYYY-MM-DD') as date, size from log_days where date in ($1::date, $2::date) order by date",
      [date, next],
    );
    expect(sizes.map((row) => [row.date, Number(row.size)])).toEqual([
      [date, 10],
      [next, 2],
    ]);
    await expectTilesAsComputed(date);
    await expectProofsAsRebuilt(date);
  });

  it('claims where its own last run ended without asking, and fails the transaction once the day moved', async () => {
    const date = '2026-10-09';
    await append(date, 3, 'start');
    const claimed = (n: number, tag: string, claim: (tx: Sql) => Promise<ClaimedLeaves | undefined>) =>
      ctx().db.transaction(async (tx) =>
        recordOnClaim(tx, await claim(tx), draftReceipts(inputs(date, n, tag))),
      );
    const first = await claimed(4, 'first', (tx) => claimLeaves(tx, date, 4));
    const end = first.end!;
    expect(end.size).toBe(7);
    const second = await claimed(2, 'second', (tx) => claimLeavesAt(tx, end, 2));
    expect(second.receipts.map((r) => r.log.leaf_index)).toEqual([7, 8]);
    expect(second.end?.size).toBe(9);
    await expectTilesAsComputed(date);
    await expectProofsAsRebuilt(date);
    // The first end again: the day has moved on since, so the claim fails and nothing is written.
    await expect(claimed(1, 'stale', (tx) => claimLeavesAt(tx, end, 1))).rejects.toThrow(/division by zero/);
    const [row] = await ctx().db.query<{ size: number }>('select size from log_days where date = $1::date', [
      date,
    ]);
    expect(Number(row?.size)).toBe(9);
  });

  it('fails the transaction rather than give back a run that no longer ends the day', async () => {
    const date = '2026-10-07';
    const attempt = ctx().db.transaction(async (tx) => {
      const claim = await claimLeaves(tx, date, 4);
      // Another claim after the run, in the same transaction (no writer of the batch does this).
      await tx.query('update log_days set size = size + 1 where date = $1::date', [date]);
      return recordOnClaim(tx, claim, draftReceipts(inputs(date, 2, 'late')));
    });
    await expect(attempt).rejects.toThrow(/division by zero/);
    const [row] = await ctx().db.query<{ n: number }>(
      'select count(*)::int as n from log_days where date = $1::date',
      [date],
    );
    expect(row?.n).toBe(0); // nothing of it committed
  });

  it('seals from the tiles the root and signature a rebuild gives', async () => {
    const date = '2026-10-03';
    await append(date, 300, 'seal');
    const leaves = await dayLeaves(ctx().db, date);
    const tree = await buildTree(leaves.hashes);
    t.clock.set('2026-10-04T00:00:01Z');
    await sealDueDays(ctx());
    const anchor = (await anchorOf(ctx().db, date))!;
    expect(anchor.root_hash).toBe(toHex(tree.root));
    const rebuilt = await signAnchor(
      {
        date,
        tree_size: tree.size,
        root_hash: toHex(tree.root),
        previous_anchor_hash: anchor.previous_anchor_hash,
      },
      privateKey(ctx()),
      logKeyName(ctx()),
    );
    expect(anchor.signature).toBe(rebuilt.signature);
    expect(anchor.checkpoint).toBe(rebuilt.checkpoint);
    await expectProofsAsRebuilt(date, [0, 299]);
  });

  it('refuses to seal a day whose stored interior disagrees with its leaves', async () => {
    const date = '2026-10-05';
    await append(date, 20, 'tamper');
    // Flip every bit of the first byte: setting it to a fixed value would change nothing in the one
    // run of 256 whose first frontier byte already holds it.
    await ctx().db.query(
      `update log_days set frontier = set_byte(frontier, 0, get_byte(frontier, 0) # 255) where date = $1`,
      [date],
    );
    t.clock.set('2026-10-06T00:00:01Z');
    await expect(sealDueDays(ctx())).rejects.toThrow(/disagrees with its leaves/);
    expect(await anchorOf(ctx().db, date)).toBeNull();
    await ctx().db.query(`update log_days set frontier = null where date = $1`, [date]);
    await tileUntiledDays(ctx());
    await expectTilesAsComputed(date);
  });

  it('serves a day logged before tiles from its leaves, then tiles it with the job', async () => {
    const date = '2026-10-07';
    await append(date, 270, 'legacy');
    await ctx().db.query(`delete from log_tiles where date = $1`, [date]);
    await ctx().db.query(`update log_days set frontier = null where date = $1`, [date]);
    await expectProofsAsRebuilt(date, [0, 256, 269]);
    await append(date, 5, 'legacy-more');
    expect((await tileUntiledDays(ctx())).tiled).toEqual([date]);
    await expectTilesAsComputed(date);
    await append(date, 3, 'after');
    await expectTilesAsComputed(date);
    await expectProofsAsRebuilt(date, [0, 256, 277]);
  });

  it('refuses a write whose tile is not where the frontier says it ends, in either transaction', async () => {
    const date = '2026-10-08';
    await append(date, 20, 'lost');
    // A tile one hash longer than the frontier says: the next append would leave a gap.
    await ctx().db.query(
      `update log_tiles set hashes = hashes || substring(hashes from 1 for 32) where date = $1`,
      [date],
    );
    const count = async () =>
      Number(
        at(
          await ctx().db.query<{ n: number }>('select count(*) as n from receipts where log_date = $1', [
            date,
          ]),
          0,
        ).n,
      );
    for (const run of [ctx().db.transaction, ctx().db.sqlTransaction]) {
      await expect(run((tx) => recordReceipts(tx, inputs(date, 1, 'after-loss')))).rejects.toThrow(
        /log tile 0\/0 is not where the frontier says it ends/,
      );
      expect(await count()).toBe(20);
    }
  });
});
