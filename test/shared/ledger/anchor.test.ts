import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calculateJwkThumbprint } from 'jose';
import {
  GENESIS_ANCHOR_HASH,
  anchorHash,
  generateLogKey,
  parseCheckpoint,
  signAnchor,
  verifyAnchor,
  verifyAnchorChain,
  verifyAnchorSignature,
} from '../../../shared/ledger/anchor.ts';
import type { Anchor } from '../../../shared/ledger/anchor.ts';
import { canonicalJson, fromBase64, fromBase64Url, toBase64 } from '../../../shared/ledger/encoding.ts';
import { h, hex } from './reference.ts';
import { at } from '../../helpers/elements.ts';

/**
 * The ledger's log keys, its daily anchors (signed, hashed canonically, refused once any field
 * changes) and the anchor chain (intact, paged, or broken where it breaks). The signed-note and
 * checkpoint formats an anchor carries are signed-note.test.ts.
 */
const keys = await generateLogKey();
const other = await generateLogKey();
const KEY_NAME = 'civitas.example/log';
const ROOT = 'ab'.repeat(32);

describe('keys', () => {
  it('generates Ed25519 JWKs whose kid is the RFC 7638 thumbprint (as jose computes it)', async () => {
    expect(keys.publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: keys.kid });
    expect(keys.publicJwk).not.toHaveProperty('d');
    expect(fromBase64Url(keys.privateJwk.d as string)).toHaveLength(32);
    expect(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: keys.publicJwk.x })).toBe(keys.kid);
    expect(keys.kid).not.toBe(other.kid);
  });
});

describe('anchors', () => {
  const body = {
    date: '2026-11-22',
    tree_size: 42,
    root_hash: ROOT,
    previous_anchor_hash: GENESIS_ANCHOR_HASH,
  };

  it('signs, names the key and carries a matching checkpoint', async () => {
    const a = await signAnchor(body, keys.privateJwk, KEY_NAME);
    expect(a).toMatchObject({ ...body, key_id: keys.kid });
    expect(fromBase64(a.signature)).toHaveLength(64);
    expect(a.checkpoint.startsWith(`${KEY_NAME}/2026-11-22\n42\n`)).toBe(true);
    expect(await verifyAnchorSignature(a, keys.publicJwk)).toBe(true);
    expect(await verifyAnchor(a, keys.publicJwk, KEY_NAME)).toEqual({ ok: true, reason: null });
    const custom = await signAnchor(body, keys.privateJwk, KEY_NAME, { origin: 'civitas.example/log/day-x' });
    expect(parseCheckpoint(custom.checkpoint).origin).toBe('civitas.example/log/day-x');
  });

  it('hashes the canonical body without signature or checkpoint', async () => {
    const a = await signAnchor(body, keys.privateJwk, KEY_NAME);
    const expected = hex(h(new TextEncoder().encode(canonicalJson({ ...body, key_id: keys.kid }))));
    expect(await anchorHash(a)).toBe(expected);
    expect(await anchorHash({ ...a, signature: 'x', checkpoint: 'y' } as Anchor)).toBe(expected);
    expect(canonicalJson({ ...body, key_id: 'k' })).toBe(
      `{"date":"2026-11-22","key_id":"k","previous_anchor_hash":"${GENESIS_ANCHOR_HASH}","root_hash":"${ROOT}","tree_size":42}`,
    );
  });

  it('fails on a forged signature, a changed root, size, date or link, or another key', async () => {
    const a = await signAnchor(body, keys.privateJwk, KEY_NAME);
    const forged = await signAnchor(body, other.privateJwk, KEY_NAME);
    const sig = fromBase64(a.signature);
    sig[10] = at(sig, 10) ^ 1;
    const cases: Anchor[] = [
      { ...a, signature: toBase64(sig) },
      { ...a, signature: forged.signature },
      { ...a, root_hash: 'cd'.repeat(32) },
      { ...a, tree_size: 43 },
      { ...a, date: '2026-11-23' },
      { ...a, previous_anchor_hash: 'ee'.repeat(32) },
      { ...a, key_id: other.kid },
      { ...a, signature: 'not base64!' },
      { ...a, root_hash: ROOT.toUpperCase() },
    ];
    for (const [i, c] of cases.entries()) {
      expect(await verifyAnchorSignature(c, keys.publicJwk), `case ${i}`).toBe(false);
      expect((await verifyAnchor(c, keys.publicJwk)).ok, `case ${i}`).toBe(false);
    }
    expect(await verifyAnchorSignature(a, other.publicJwk)).toBe(false);
    expect(await verifyAnchorSignature(forged, keys.publicJwk)).toBe(false);
    // a checkpoint from another day (other root) under a valid signature is caught
    const otherDay = await signAnchor({ ...body, root_hash: 'cd'.repeat(32) }, keys.privateJwk, KEY_NAME);
    expect((await verifyAnchor({ ...a, checkpoint: otherDay.checkpoint }, keys.publicJwk)).reason).toMatch(
      /root/,
    );
    expect((await verifyAnchor({ ...a, checkpoint: forged.checkpoint }, keys.publicJwk)).reason).toMatch(
      /checkpoint/,
    );
  });

  it('verifies any random anchor and rejects it once any field changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1e9 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        async (size, root, date) => {
          const b = {
            date: date.toISOString().slice(0, 10),
            tree_size: size,
            root_hash: hex(root),
            previous_anchor_hash: GENESIS_ANCHOR_HASH,
          };
          const a = await signAnchor(b, keys.privateJwk, KEY_NAME);
          expect(await verifyAnchorSignature(a, keys.publicJwk)).toBe(true);
          expect(await verifyAnchorSignature({ ...a, tree_size: size + 1 }, keys.publicJwk)).toBe(false);
          const r = root.slice();
          r[0] = at(r, 0) ^ 0x80;
          expect(await verifyAnchorSignature({ ...a, root_hash: hex(r) }, keys.publicJwk)).toBe(false);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('anchor chain', () => {
  async function chain(days: number): Promise<Anchor[]> {
    const out: Anchor[] = [];
    let previous = GENESIS_ANCHOR_HASH;
    for (let i = 0; i < days; i++) {
      const date = new Date(Date.UTC(2026, 10, 20 + i)).toISOString().slice(0, 10);
      const a = await signAnchor(
        { date, tree_size: i * 3, root_hash: hex(h(Uint8Array.of(i))), previous_anchor_hash: previous },
        keys.privateJwk,
        KEY_NAME,
      );
      out.push(a);
      previous = await anchorHash(a);
    }
    return out;
  }

  it('accepts an intact chain and pages through it', async () => {
    const anchors = await chain(6);
    const all = await verifyAnchorChain(anchors, { publicJwk: keys.publicJwk });
    expect(all).toMatchObject({ ok: true, length: 6, broken_at: null, head: await anchorHash(anchors[5]!) });
    const first = await verifyAnchorChain(anchors.slice(0, 3));
    expect(first.ok).toBe(true);
    const second = await verifyAnchorChain(anchors.slice(3), { previous_anchor_hash: first.head as string });
    expect(second.ok).toBe(true);
    expect((await verifyAnchorChain(anchors.slice(3))).broken_at).toBe(0); // a later page needs its predecessor
    expect(await verifyAnchorChain([])).toMatchObject({ ok: true, head: GENESIS_ANCHOR_HASH });
  });

  it('catches a broken link, a rewritten anchor, a reordering or a bad signature', async () => {
    const anchors = await chain(5);
    const brokenLink = anchors.map((a, i) => (i === 2 ? { ...a, previous_anchor_hash: 'ff'.repeat(32) } : a));
    expect(await verifyAnchorChain(brokenLink)).toMatchObject({ ok: false, broken_at: 2 });
    // rewriting day 1 (even re-signed) changes its hash, so day 2's link breaks
    const rewritten = [...anchors];
    rewritten[1] = await signAnchor(
      { ...anchors[1]!, root_hash: 'cd'.repeat(32) },
      keys.privateJwk,
      KEY_NAME,
    );
    expect(await verifyAnchorChain(rewritten, { publicJwk: keys.publicJwk })).toMatchObject({
      ok: false,
      broken_at: 2,
    });
    // changing a field without re-signing is caught by the signature when a key is given
    const unsigned = anchors.map((a, i) => (i === 4 ? { ...a, tree_size: 999 } : a));
    expect(await verifyAnchorChain(unsigned, { publicJwk: keys.publicJwk })).toMatchObject({
      ok: false,
      broken_at: 4,
    });
    expect(await verifyAnchorChain([anchors[1]!, anchors[0]!])).toMatchObject({ ok: false, broken_at: 0 });
    const notGenesis = [{ ...at(anchors, 0), previous_anchor_hash: 'aa'.repeat(32) }];
    expect(await verifyAnchorChain(notGenesis)).toMatchObject({ ok: false, broken_at: 0 });
    expect(await verifyAnchorChain([{ ...at(anchors, 0), date: '2026-02-30' }])).toMatchObject({
      ok: false,
      broken_at: 0,
    });
    const forged = anchors.map((a, i) => (i === 3 ? { ...a, signature: at(anchors, 2).signature } : a));
    expect(await verifyAnchorChain(forged, { publicJwk: keys.publicJwk })).toMatchObject({
      ok: false,
      broken_at: 3,
    });
  });
});
