import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calculateJwkThumbprint } from 'jose';
import {
  GENESIS_ANCHOR_HASH,
  anchorHash,
  formatCheckpoint,
  generateLogKey,
  parseCheckpoint,
  signAnchor,
  verifyAnchor,
  verifyAnchorChain,
  verifyAnchorSignature,
  verifyCheckpoint,
} from '../../../shared/ledger/anchor.ts';
import type { Anchor, Ed25519Jwk } from '../../../shared/ledger/anchor.ts';
import { noteKeyId, parseNote, signNote, verifyNote } from '../../../shared/ledger/note.ts';
import {
  canonicalJson,
  fromBase64,
  fromBase64Url,
  toBase64,
  toBase64Url,
} from '../../../shared/ledger/encoding.ts';
import { h, hex } from './reference.ts';
import { at } from '../../helpers/elements.ts';

const keys = await generateLogKey();
const other = await generateLogKey();
const KEY_NAME = 'civitas.example/log';
const ROOT = 'ab'.repeat(32);

function goKey(vkey: string, skey?: string): Ed25519Jwk {
  // golang.org/x/mod/sumdb/note key encodings: base64(0x01 || 32 bytes)
  const pub = fromBase64(vkey.split('+').slice(2).join('+'));
  const jwk: Ed25519Jwk = { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(pub.slice(1)) };
  if (skey) jwk.d = toBase64Url(fromBase64(skey.split('+').slice(4).join('+')).slice(1));
  return jwk;
}

// Vectors from golang.org/x/mod/sumdb/note (note_test.go), the reference signed-note implementation.
const PETER = goKey(
  'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
  'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz',
);
const ENOCH = goKey('EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop');
const GO_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG =
  '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIG =
  '\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';

describe('signed notes (c2sp.org/signed-note)', () => {
  it('computes key IDs as SHA-256(name || 0x0A || 0x01 || key)[:4]', async () => {
    expect((await noteKeyId('PeterNeumann', fromBase64Url(PETER.x))).toString(16)).toBe('c74f20a3');
    expect((await noteKeyId('EnochRoot', fromBase64Url(ENOCH.x))).toString(16)).toBe('af0cfe78');
    const manual = h(new TextEncoder().encode('PeterNeumann\n'), Uint8Array.of(1), fromBase64Url(PETER.x));
    expect(hex(manual.slice(0, 4))).toBe('c74f20a3');
  });

  it('signs byte-for-byte like the Go reference and verifies its notes', async () => {
    expect(await signNote(GO_TEXT, PETER, 'PeterNeumann')).toBe(GO_TEXT + '\n' + PETER_SIG);
    const v = await verifyNote(GO_TEXT + '\n' + PETER_SIG + ENOCH_SIG, PETER, 'PeterNeumann');
    expect(v).toMatchObject({ ok: true, text: GO_TEXT, key_name: 'PeterNeumann' });
    expect((await verifyNote(GO_TEXT + '\n' + PETER_SIG + ENOCH_SIG, ENOCH, 'EnochRoot')).ok).toBe(true);
    // no signature from the trusted key
    expect((await verifyNote(GO_TEXT + '\n' + ENOCH_SIG, PETER, 'PeterNeumann')).ok).toBe(false);
    // same name, other key: ignored (its key ID differs), so nothing verifies
    expect((await verifyNote(GO_TEXT + '\n' + PETER_SIG, ENOCH, 'PeterNeumann')).ok).toBe(false);
    // a corrupted signature from the known key rejects the note
    const bad = GO_TEXT + '\n' + PETER_SIG.slice(0, 60) + 'ABCD' + PETER_SIG.slice(60);
    expect((await verifyNote(bad, PETER, 'PeterNeumann')).ok).toBe(false);
  });

  it('rejects malformed notes like the Go reference', async () => {
    const bad = [
      GO_TEXT,
      GO_TEXT + '\n',
      GO_TEXT + '\n' + PETER_SIG.slice(0, -1),
      '\x01' + GO_TEXT + '\n' + PETER_SIG,
      GO_TEXT +
        '\n\u2014 Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n',
      GO_TEXT + '\n' + PETER_SIG + 'Unexpected line.\n',
      GO_TEXT + '\n' + PETER_SIG.repeat(101),
      GO_TEXT + '\n\u2014 PeterNeumann x08go\n',
    ];
    for (const note of bad) {
      expect(() => parseNote(note)).toThrow();
      expect((await verifyNote(note, PETER, 'PeterNeumann')).ok).toBe(false);
    }
    // up to 100 signatures are fine
    expect((await verifyNote(GO_TEXT + '\n' + PETER_SIG.repeat(16), PETER, 'PeterNeumann')).ok).toBe(true);
  });
});

describe('checkpoints (c2sp.org/tlog-checkpoint)', () => {
  const fields = { origin: 'civitas.example/log/2026-11-22', tree_size: 20852163, root_hash: ROOT };

  it('formats the three lines exactly', () => {
    expect(formatCheckpoint(fields)).toBe(
      `civitas.example/log/2026-11-22\n20852163\n${toBase64(new Uint8Array(32).fill(0xab))}\n`,
    );
    expect(formatCheckpoint({ ...fields, tree_size: 0 })).toContain('\n0\n');
    expect(() => formatCheckpoint({ ...fields, origin: 'has space' })).toThrow();
    expect(() => formatCheckpoint({ ...fields, origin: '' })).toThrow();
    expect(() => formatCheckpoint({ ...fields, root_hash: 'AB'.repeat(32) })).toThrow();
    expect(() => formatCheckpoint({ ...fields, tree_size: -1 })).toThrow();
    expect(() => formatCheckpoint({ ...fields, extensions: [''] })).toThrow();
  });

  it('parses the spec example', () => {
    const cp = parseCheckpoint(
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n',
    );
    expect(cp).toMatchObject({ origin: 'example.com/behind-the-sofa', tree_size: 20852163, extensions: [] });
    expect(cp.root_hash).toBe(hex(fromBase64('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=')));
    expect(cp.signatures).toHaveLength(1);
  });

  it('round-trips and verifies; any tampering fails', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.nat(),
        async (size, root, pos) => {
          const f = { origin: fields.origin, tree_size: size, root_hash: hex(root) };
          const signed = (await signAnchorCheckpoint(f)) as string;
          const v = await verifyCheckpoint(signed, keys.publicJwk, KEY_NAME, { origin: fields.origin });
          expect(v.ok).toBe(true);
          if (v.ok)
            expect({
              origin: v.checkpoint.origin,
              tree_size: v.checkpoint.tree_size,
              root_hash: v.checkpoint.root_hash,
            }).toEqual(f);
          expect(parseCheckpoint(signed)).toMatchObject(f);
          expect((await verifyCheckpoint(signed, other.publicJwk, KEY_NAME)).ok).toBe(false);
          expect((await verifyCheckpoint(signed, keys.publicJwk, 'civitas.example/other')).ok).toBe(false);
          expect((await verifyCheckpoint(signed, keys.publicJwk, KEY_NAME, { origin: 'x/y' })).ok).toBe(
            false,
          );
          // flip one character of the body: either unparsable or the signature fails
          const body = signed.slice(0, signed.indexOf('\n\n'));
          const i = pos % body.length;
          const swapped = body[i] === 'A' ? 'B' : 'A';
          const tampered = body.slice(0, i) + swapped + signed.slice(i + 1);
          expect((await verifyCheckpoint(tampered, keys.publicJwk, KEY_NAME)).ok).toBe(false);
        },
      ),
      { numRuns: 40 },
    );
  });

  async function signAnchorCheckpoint(f: {
    origin: string;
    tree_size: number;
    root_hash: string;
  }): Promise<string> {
    const { signCheckpoint } = await import('../../../shared/ledger/note.ts');
    return signCheckpoint(f, keys.privateJwk, KEY_NAME);
  }
});

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
