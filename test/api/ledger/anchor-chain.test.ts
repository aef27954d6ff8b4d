/**
 * /verify/anchor-chain verifies only the anchors sealed since the chain it last verified
 * (api/ledger/chain.ts, a point stored in anchor_chain_verified), and its answer stays the one a full verification from genesis gives: as
 * the chain grows, when a verified anchor is tampered with, when a new one is, and once restored.
 * Its anchors page by day, newest first (issue 20): every anchor once while a day is sealed
 * between pages, `previous` walking back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { recordReceipt } from '../../../api/ledger/receipts.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { allAnchors, wireAnchor } from '../../../api/ledger/anchors.ts';
import { verifyAnchorChain, type Ed25519Jwk } from '../../../shared/ledger/index.ts';
import { requests } from '../../helpers/http.ts';
import { BAD_CURSORS, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const key = () => t.app.civitas.keys.signing.publicJwk as unknown as Ed25519Jwk;

/** A receipt on `date`, then that day sealed. */
async function sealDay(date: string) {
  t.clock.set(`${date}T12:00:00.000Z`);
  await db().transaction((tx) =>
    recordReceipt(tx, { step: 'test.chain', subject: `day:${date}`, at: t.clock.now() }),
  );
  t.clock.set(`${date}T23:59:59.000Z`);
  t.clock.set(new Date(t.clock.now().getTime() + 3_600_000).toISOString());
  await sealDueDays(t.app.civitas);
}

/** The route's verification, and what verifying every anchor from genesis gives. */
async function both() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/verify/anchor-chain',
    headers: { accept: 'application/json' },
  });
  expect(res.statusCode).toBe(200);
  const full = await verifyAnchorChain((await allAnchors(db())).map(wireAnchor), { publicJwk: key() });
  return { route: res.json().verification, full };
}

const flip = (s: string) => s.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));

describe('the anchor chain, verified as it grows', () => {
  it('answers what a full verification answers, through growth, tampering and restoring', async () => {
    for (const date of ['2026-11-01', '2026-11-02', '2026-11-03']) await sealDay(date);
    let { route, full } = await both();
    expect(route).toEqual(full);
    expect(route).toMatchObject({ ok: true, length: 3 });

    // Grows: the new anchor is verified from the verified head.
    await sealDay('2026-11-04');
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(route).toMatchObject({ ok: true, length: 4 });

    // A verified anchor rewritten in place turns the chain red, at that anchor.
    const [middle = missing()] = await db().query<{ signature: string }>(
      "select signature from anchors where date = '2026-11-02'",
    );
    await db().query("update anchors set signature = $1 where date = '2026-11-02'", [flip(middle.signature)]);
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(route).toMatchObject({ ok: false, broken_at: 1 });
    await db().query("update anchors set signature = $1 where date = '2026-11-02'", [middle.signature]);
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(route).toMatchObject({ ok: true, length: 4 });

    // A new anchor that does not verify is caught past the verified prefix, with the full chain's reason.
    await sealDay('2026-11-05');
    await db().query("update anchors set root_hash = $1 where date = '2026-11-05'", ['0'.repeat(64)]);
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(route).toMatchObject({ ok: false, broken_at: 4 });

    // A verified anchor's link rewritten: red too, whichever anchor the cache last saw.
    await db().query("update anchors set previous_anchor_hash = $1 where date = '2026-11-03'", [
      'f'.repeat(64),
    ]);
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(route.ok).toBe(false);
  });

  it('pages its anchors newest first while a day is sealed between pages', async () => {
    const { get } = requests(() => t.app);
    const dates = (body: PageBody) =>
      (body as PageBody & { anchors: { date: string }[] }).anchors.map((a) => a.date);
    const stored = async () => (await allAnchors(db())).map((a) => a.date).reverse();
    const before = await stored();
    expect(before).toHaveLength(5);
    const walked = await walkForward(get, '/verify/anchor-chain?limit=2', dates, async (page) => {
      if (page === 1) await sealDay('2026-11-06');
    });
    expect(walked.pages).toBe(3);
    expect(walked.items).toEqual(before);
    expect(await walkBack(get, walked.last, dates)).toEqual(await stored());
    const last = (await get(walked.last)).json();
    expect(last.verification.length).toBe(6);
    for (const bad of BAD_CURSORS)
      expect((await get(`/verify/anchor-chain?after=${bad}`)).statusCode, bad).toBe(400);
    expect((await get('/verify/anchor-chain?limit=367')).statusCode).toBe(400);
  });

  it('keeps its verified point, and any change to a stored anchor clears it in the same statement', async () => {
    const point = async () =>
      (
        await db().query<{ through: string | null; length: number | null }>(
          "select to_char(through, 'YYYY-MM-DD') as through, length from anchor_chain_verified",
        )
      )[0];
    // The chain is broken since the first test; restore what it rewrote so it verifies again.
    await db().query("update anchors set root_hash = $1 where date = '2026-11-05'", ['0'.repeat(64)]);
    expect(await point()).toEqual({ through: null, length: null });
    await db().query('delete from anchors');
    await sealDay('2026-11-10');
    await sealDay('2026-11-11');
    let { route, full } = await both();
    expect(route).toEqual(full);
    expect(route).toMatchObject({ ok: true, length: 2 });
    expect(await point()).toEqual({ through: '2026-11-11', length: 2 });
    // A new day moves the point on (verified from its head).
    await sealDay('2026-11-12');
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(await point()).toEqual({ through: '2026-11-12', length: 3 });
    // An anchor inserted on or before the verified day clears it; so does any update.
    const [copy] = await db().query<Record<string, unknown>>(
      "select * from anchors where date = '2026-11-11'",
    );
    await db().query(
      `insert into anchors (date, tree_size, root_hash, previous_anchor_hash, anchor_hash, key_id, signature, checkpoint, sealed_at)
       values ('2026-11-06', $1, $2, $3, $4 || '-copy', $5, $6, $7, $8)`,
      [
        copy!.tree_size,
        copy!.root_hash,
        copy!.previous_anchor_hash,
        copy!.anchor_hash,
        copy!.key_id,
        copy!.signature,
        copy!.checkpoint,
        copy!.sealed_at,
      ],
    );
    expect(await point()).toEqual({ through: null, length: null });
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(route.ok).toBe(false);
    await db().query("delete from anchors where date = '2026-11-06'");
    ({ route, full } = await both());
    expect(route).toEqual(full);
    expect(route).toMatchObject({ ok: true, length: 3 });
    expect(await point()).toEqual({ through: '2026-11-12', length: 3 });
    await db().query("update anchors set sealed_at = sealed_at where date = '2026-11-10'");
    expect(await point()).toEqual({ through: null, length: null });
  });
});
