/**
 * Sealing reads a day's leaves a page at a time (8,192 per statement, api/ledger/tiling.ts), so
 * its memory does not grow with the day (issue 20; measured by scripts/bench/seal-memory.ts). A
 * day longer than one page seals under the root RFC 9162 defines, computed here from the leaves
 * by the definition itself, not by the service's Merkle code; the streamed root is the same at
 * every page size, on leaves the service appended (tiles kept as they arrived).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { recordReceipts } from '../../../api/ledger/receipts.ts';
import { dayLeaves } from '../../../api/ledger/log-days.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { streamedRoot, tileUntiledDays } from '../../../api/ledger/tiling.ts';
import { anchorOf } from '../../../api/ledger/anchors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** RFC 9162 section 2.1.1: MTH(D[n]) = SHA-256(0x01 ‖ MTH(D[0:k]) ‖ MTH(D[k:n])), k the largest power of two below n. */
function definitionRoot(leafHashes: readonly Buffer[]): string {
  const mth = (from: number, to: number): Buffer => {
    if (to - from === 1) return leafHashes[from]!; // from < to ≤ length
    let k = 1;
    while (k * 2 < to - from) k *= 2;
    return createHash('sha256')
      .update(Buffer.from([1]))
      .update(mth(from, from + k))
      .update(mth(from + k, to))
      .digest();
  };
  return mth(0, leafHashes.length).toString('hex');
}

async function append(date: string, n: number) {
  await t.app.civitas.db.transaction((tx) =>
    recordReceipts(
      tx,
      Array.from({ length: n }, (_, i) => ({
        step: 'test.seal',
        subject: `seal:${date}:${i}`,
        at: new Date(`${date}T10:00:00Z`),
      })),
    ),
  );
}

async function leafHashes(date: string): Promise<Buffer[]> {
  return (await dayLeaves(t.app.civitas.db, date)).hashes.map((hash) => Buffer.from(hash, 'hex'));
}

describe('sealing streams the day', () => {
  it('seals a day longer than one page under the root the definition gives', async () => {
    // Written as a bulk loader writes a day (8,492 receipts in one statement, no tiles), then
    // tiled by the ledger.tile job: the service's own appends of this many leaves take a minute
    // on a loaded machine. Sealing then checks the tiles' root against the streamed one.
    const date = '2026-09-01';
    const size = 8192 + 300;
    await t.app.civitas.db.query(`insert into log_days (date, size) values ($1, $2)`, [date, size]);
    await t.app.civitas.db.query(
      `insert into receipts (id, step, subject, recorded_at, leaf_hash, log_date, leaf_index, subject_digest)
       select 'seal-' || i, 'test.seal', null, $1::date + time '10:00', encode(sha256(('leaf ' || i)::bytea), 'hex'),
              $1::date, i, encode(sha256(('subject ' || i)::bytea), 'hex')
         from generate_series(0, $2::int - 1) as i`,
      [date, size],
    );
    expect((await tileUntiledDays(t.app.civitas)).tiled).toEqual([date]);
    const leaves = await leafHashes(date);
    expect(leaves).toHaveLength(size);
    t.clock.set('2026-09-02T00:00:01Z');
    const result = await sealDueDays(t.app.civitas);
    expect(result.sealed.map((anchor) => anchor.date)).toEqual([date]);
    const anchor = (await anchorOf(t.app.civitas.db, date))!;
    expect(anchor.tree_size).toBe(size);
    expect(anchor.root_hash).toBe(definitionRoot(leaves));
  });

  it('streams the same root at every page size, across page and tile edges', async () => {
    const date = '2026-09-03';
    await append(date, 700);
    const leaves = await leafHashes(date);
    for (const size of [1, 2, 3, 255, 256, 257, 512, 700]) {
      const expected = definitionRoot(leaves.slice(0, size));
      for (const page of size <= 3 ? [1, 2] : [37, 256, 699, 8192]) {
        expect((await streamedRoot(t.app.civitas.db, date, size, page)).toString('hex')).toBe(expected);
      }
    }
  });
});
