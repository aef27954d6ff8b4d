import { describe, expect, it } from 'vitest';
import { GENESIS_ANCHOR_HASH, signAnchor } from '../../../shared/ledger/anchor.ts';
import type { Anchor } from '../../../shared/ledger/anchor.ts';
import { receiptLeafHash, subjectDigest, toHex } from '../../../shared/ledger/hash.ts';
import { verifyReceiptProof } from '../../../shared/ledger/verifier.ts';
import type { WireInclusionProof } from '../../../shared/ledger/verifier.ts';
import { at } from '../../helpers/elements.ts';
import { DATE, KEY_NAME, day, failing, keys, other } from './proof-day.ts';

/**
 * What the receipt verifier refuses, naming the check that failed: a changed receipt; a changed
 * inclusion path, index, size or root; a forged, foreign or missing anchor signature. What it
 * accepts is verifier.test.ts.
 */
describe('verifyReceiptProof refuses', () => {
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
});
