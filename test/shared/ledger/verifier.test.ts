import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENESIS_ANCHOR_HASH, generateLogKey, signAnchor } from '../../../shared/ledger/anchor.ts';
import type { Anchor } from '../../../shared/ledger/anchor.ts';
import { receiptLeafData, receiptLeafHash, subjectDigest, toHex } from '../../../shared/ledger/hash.ts';
import { buildTree } from '../../../shared/ledger/merkle.ts';
import { inclusionProof } from '../../../shared/ledger/inclusion.ts';
import { verifyReceiptProof } from '../../../shared/ledger/verifier.ts';
import type { WireInclusionProof, WireReceipt } from '../../../shared/ledger/verifier.ts';
import * as ledger from '../../../shared/ledger/index.ts';
import { h, hex, refLeaf } from './reference.ts';
import { at } from '../../helpers/elements.ts';

const keys = await generateLogKey();
const other = await generateLogKey();
const KEY_NAME = 'civitas.example/log';
const DATE = '2026-11-22';

async function day(n: number) {
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

const failing = (r: { checks: { name: string; ok: boolean }[] }) =>
  r.checks.filter((c) => !c.ok).map((c) => c.name);

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

  it('rejects a changed receipt', async () => {
    const d = await day(9);
    const proof = await d.proofOf(4, true);
    const r = at(d.receipts, 4);
    for (const changed of [
      { ...r, subject_digest: 'cd'.repeat(32) },
      { ...r, step: 'other' },
      { ...r, recorded_at: '2026-11-22T10:00:05.001Z' },
      { ...r, id: at(d.receipts, 3).id },
    ]) {
      const res = await verifyReceiptProof({ receipt: changed, proof, publicJwk: keys.publicJwk });
      expect(res.ok).toBe(false);
      expect(failing(res)).toContain('leaf_hash');
      expect(failing(res)).toContain('inclusion');
    }
    // a changed subject (or salt) no longer matches the digest the leaf commits to
    expect(
      failing(
        await verifyReceiptProof({
          receipt: { ...r, subject: 'imprint:999' },
          proof,
          publicJwk: keys.publicJwk,
        }),
      ),
    ).toEqual(['subject']);
    expect(
      failing(
        await verifyReceiptProof({
          receipt: { ...r, subject_salt: 'ff'.repeat(16) },
          proof,
          publicJwk: keys.publicJwk,
        }),
      ),
    ).toEqual(['subject']);
    // a redacted receipt (subject erased, salt deleted) still verifies: the digest binds the leaf
    const redacted = await verifyReceiptProof({
      receipt: { ...r, subject: 'redacted', subject_salt: null, subject_redacted: true },
      proof,
      publicJwk: keys.publicJwk,
    });
    expect(redacted.ok, JSON.stringify(redacted.checks)).toBe(true);
    expect(
      failing(
        await verifyReceiptProof({
          receipt: { ...r, subject: 'redacted', subject_redacted: true },
          proof,
          publicJwk: keys.publicJwk,
        }),
      ),
    ).toEqual(['subject']);
    // a receipt whose digest and leaf_hash were updated to match a changed subject still is not in the tree
    const forgedData = {
      ...r,
      subject: 'imprint:999',
      subject_digest: await subjectDigest('imprint:999', r.subject_salt as string),
    };
    const forged = { ...forgedData, leaf_hash: toHex(await receiptLeafHash(forgedData)) };
    const res = await verifyReceiptProof({
      receipt: forged,
      proof: { ...proof, leaf_hash: forged.leaf_hash },
      publicJwk: keys.publicJwk,
    });
    expect(failing(res)).toEqual(['inclusion']);
    // another receipt's proof
    const wrong = await verifyReceiptProof({
      receipt: r,
      proof: await d.proofOf(5, true),
      publicJwk: keys.publicJwk,
    });
    expect(failing(wrong)).toEqual(['receipt_in_proof', 'inclusion']);
  });

  it('rejects a changed path, index, size or root', async () => {
    const d = await day(21);
    const proof = await d.proofOf(7, true);
    const r = at(d.receipts, 7);
    const flip = (x: string) => (x[0] === '0' ? '1' : '0') + x.slice(1);
    for (let k = 0; k < proof.inclusion_path.length; k++) {
      const path = proof.inclusion_path.map((p, i) => (i === k ? flip(p) : p));
      expect(
        failing(
          await verifyReceiptProof({
            receipt: r,
            proof: { ...proof, inclusion_path: path },
            publicJwk: keys.publicJwk,
          }),
        ),
      ).toEqual(['inclusion']);
    }
    expect(
      failing(
        await verifyReceiptProof({
          receipt: r,
          proof: { ...proof, inclusion_path: proof.inclusion_path.slice(1) },
          publicJwk: keys.publicJwk,
        }),
      ),
    ).toEqual(['inclusion']);
    expect(
      failing(
        await verifyReceiptProof({
          receipt: r,
          proof: { ...proof, root_hash: flip(proof.root_hash) },
          publicJwk: keys.publicJwk,
        }),
      ),
    ).toEqual(['inclusion', 'anchor_root']);
    // an unsealed proof with a wrong root fails on inclusion alone
    const unsealed = await d.proofOf(7, false);
    expect(
      failing(
        await verifyReceiptProof({ receipt: r, proof: { ...unsealed, root_hash: flip(unsealed.root_hash) } }),
      ),
    ).toEqual(['inclusion']);
    // changing the size: where the path shape stays the same, the anchor (which signs the size) catches it
    const resized = await verifyReceiptProof({
      receipt: r,
      proof: { ...proof, tree_size: 22 },
      publicJwk: keys.publicJwk,
    });
    expect(resized.ok).toBe(false);
    expect(failing(resized)).toContain('anchor_root');
    const idx = await verifyReceiptProof({
      receipt: { ...r, log: { date: DATE, leaf_index: 6 } },
      proof: { ...proof, leaf_index: 6 },
      publicJwk: keys.publicJwk,
    });
    expect(failing(idx)).toEqual(['inclusion']);
  });

  it('rejects a forged, foreign or missing anchor signature', async () => {
    const d = await day(6);
    const proof = await d.proofOf(2, true);
    const r = at(d.receipts, 2);
    const foreign = await signAnchor(
      { date: DATE, tree_size: 6, root_hash: d.anchor.root_hash, previous_anchor_hash: GENESIS_ANCHOR_HASH },
      other.privateJwk,
      KEY_NAME,
    );
    const forgedSig: Anchor = { ...d.anchor, signature: foreign.signature };
    expect(
      failing(await verifyReceiptProof({ receipt: r, proof, anchor: forgedSig, publicJwk: keys.publicJwk })),
    ).toEqual(['anchor_signature']);
    expect(
      failing(await verifyReceiptProof({ receipt: r, proof, anchor: foreign, publicJwk: keys.publicJwk })),
    ).toEqual(['anchor_signature', 'anchor_checkpoint']);
    expect(failing(await verifyReceiptProof({ receipt: r, proof, publicJwk: other.publicJwk }))).toEqual([
      'anchor_signature',
      'anchor_checkpoint',
    ]);
    expect(
      failing(
        await verifyReceiptProof({
          receipt: r,
          proof,
          anchor: { ...d.anchor, checkpoint: foreign.checkpoint },
          publicJwk: keys.publicJwk,
        }),
      ),
    ).toEqual(['anchor_checkpoint']);
    // an anchor over another root, validly signed, does not seal this proof
    const otherRoot = await signAnchor(
      { date: DATE, tree_size: 6, root_hash: 'cd'.repeat(32), previous_anchor_hash: GENESIS_ANCHOR_HASH },
      keys.privateJwk,
      KEY_NAME,
    );
    expect(
      failing(await verifyReceiptProof({ receipt: r, proof, anchor: otherRoot, publicJwk: keys.publicJwk })),
    ).toEqual(['anchor_root']);
    // sealed without a key: not ok
    const noKey = await verifyReceiptProof({ receipt: r, proof });
    expect(noKey.ok).toBe(false);
    expect(failing(noKey)).toEqual(['anchor_signature']);
    // says sealed but carries no anchor
    const { anchor: _drop, ...bare } = proof;
    expect(
      failing(
        await verifyReceiptProof({
          receipt: r,
          proof: bare as WireInclusionProof,
          publicJwk: keys.publicJwk,
        }),
      ),
    ).toEqual(['anchor_root', 'anchor_signature']);
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
