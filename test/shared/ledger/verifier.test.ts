import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { receiptLeafData, receiptLeafHash, subjectDigest, toHex } from '../../../shared/ledger/hash.ts';
import { verifyReceiptProof } from '../../../shared/ledger/verifier.ts';
import * as ledger from '../../../shared/ledger/index.ts';
import { h, hex, refLeaf } from './reference.ts';
import { at } from '../../helpers/elements.ts';
import { KEY_NAME, day, keys } from './proof-day.ts';

/**
 * The receipt verifier and what it checks: the leaf data and subject commitment (recomputed
 * independently), proofs it accepts, sealed or not, for any leaf of random days, garbage it
 * survives, and shared/ledger's portability. What it refuses is verifier-rejects.test.ts.
 */

describe('receipt leaf data', () => {
  const D = 'ab'.repeat(32);
  it('is the canonical JSON of id, recorded_at, step, subject_digest (sorted, no spaces)', () => {
    const data = receiptLeafData({
      id: 'rcpt_"1',
      step: 'imprint.accepted',
      subject_digest: D,
      recorded_at: '2026-11-22T10:00:00.000Z',
      subject: 'x',
      extra: 1,
    } as never);
    expect(new TextDecoder().decode(data)).toBe(
      `{"id":"rcpt_\\"1","recorded_at":"2026-11-22T10:00:00.000Z","step":"imprint.accepted","subject_digest":"${D}"}`,
    );
    expect(() => receiptLeafData({ id: 1, step: 'b', subject_digest: D, recorded_at: 'c' } as never)).toThrow(
      TypeError,
    );
    expect(() => receiptLeafData({ id: 'a', step: 'b', recorded_at: 'c' } as never)).toThrow(TypeError);
    expect(() =>
      receiptLeafData({ id: 'a', step: 'b', subject_digest: D.toUpperCase(), recorded_at: 'c' } as never),
    ).toThrow(TypeError);
  });

  it('hashes as SHA-256(0x00 || data), independently recomputed', async () => {
    const r = { id: 'rcpt_é', step: 's', subject_digest: D, recorded_at: 't' };
    const data = new TextEncoder().encode(
      JSON.stringify({
        id: r.id,
        recorded_at: r.recorded_at,
        step: r.step,
        subject_digest: r.subject_digest,
      }),
    );
    expect(toHex(await receiptLeafHash(r))).toBe(hex(refLeaf(data)));
  });

  it('commits to the subject as SHA-256(salt || UTF-8 subject), independently recomputed', async () => {
    const salt = '00112233445566778899aabbccddeeff';
    const { createHash } = await import('node:crypto');
    const expected = createHash('sha256')
      .update(Buffer.from(salt, 'hex'))
      .update('sovereign:3fa9é', 'utf8')
      .digest('hex');
    expect(await subjectDigest('sovereign:3fa9é', salt)).toBe(expected);
    await expect(subjectDigest('x', 'short')).rejects.toThrow(TypeError);
    await expect(subjectDigest('x', salt.toUpperCase())).rejects.toThrow(TypeError);
  });
});

describe('verifyReceiptProof', () => {
  it('accepts a sealed proof with the key, every check passing', async () => {
    const d = await day(13);
    const res = await verifyReceiptProof({
      receipt: at(d.receipts, 5),
      proof: await d.proofOf(5, true),
      publicJwk: keys.publicJwk,
      keyName: KEY_NAME,
    });
    expect(res.ok).toBe(true);
    expect(res.sealed).toBe(true);
    expect(res.checks.map((c) => c.name)).toEqual([
      'subject',
      'leaf_hash',
      'receipt_in_proof',
      'inclusion',
      'anchor_root',
      'anchor_signature',
      'anchor_checkpoint',
    ]);
    // the anchor may also come separately (e.g. from /verify/anchor/{date})
    const separate = await verifyReceiptProof({
      receipt: at(d.receipts, 5),
      proof: await d.proofOf(5, false),
      anchor: d.anchor,
      publicJwk: keys.publicJwk,
    });
    expect(separate.ok).toBe(true);
  });

  it('accepts an unsealed proof as unsealed, with no anchor checks', async () => {
    const d = await day(4);
    const res = await verifyReceiptProof({ receipt: at(d.receipts, 3), proof: await d.proofOf(3, false) });
    expect(res).toMatchObject({ ok: true, sealed: false });
    expect(res.checks.map((c) => c.name)).toEqual(['subject', 'leaf_hash', 'receipt_in_proof', 'inclusion']);
  });

  it('works for every leaf of random days (sizes 1..300)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.nat(), async (n, pick) => {
        const d = await day(n);
        const i = pick % n;
        const res = await verifyReceiptProof({
          receipt: at(d.receipts, i),
          proof: await d.proofOf(i, true),
          publicJwk: keys.publicJwk,
        });
        expect(res.ok, JSON.stringify(res.checks)).toBe(true);
      }),
      { numRuns: 15 },
    );
  });

  it('never throws on garbage', async () => {
    const d = await day(3);
    const proof = await d.proofOf(1, true);
    for (const input of [
      {},
      { receipt: null, proof: null },
      { receipt: d.receipts[1], proof: { ...proof, inclusion_path: null } },
      { receipt: { ...d.receipts[1], log: null }, proof },
      { receipt: d.receipts[1], proof: { ...proof, anchor: { nope: 1 } }, publicJwk: keys.publicJwk },
      { receipt: d.receipts[1], proof, publicJwk: { kty: 'RSA' } },
    ]) {
      const res = await verifyReceiptProof(input as never);
      expect(res.ok).toBe(false);
    }
  });
});

describe('portability', () => {
  it('shared/ledger imports nothing outside itself (only WebCrypto and TextEncoder globals)', () => {
    const dir = fileURLToPath(new URL('../../../shared/ledger/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const src = readFileSync(dir + file, 'utf8');
      for (const m of src.matchAll(/(?:import|export)[^'"]*from\s+'([^']+)'/g))
        expect(m[1], `${file}`).toMatch(/^\.\/[a-z-]+\.ts$/);
      const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/\bBuffer\b|\bprocess\.|require\(|node:/);
    }
  });

  it('exposes the whole API from the barrel', () => {
    for (const name of [
      'verifyReceiptProof',
      'buildTree',
      'verifyInclusion',
      'verifyConsistency',
      'signAnchor',
      'verifyAnchorChain',
      'formatCheckpoint',
      'verifyCheckpoint',
      'generateLogKey',
      'receiptLeafData',
    ]) {
      expect(typeof (ledger as Record<string, unknown>)[name], name).toBe('function');
    }
    expect(hex(h())).toBe(ledger.EMPTY_TREE_ROOT_HEX);
  });
});
