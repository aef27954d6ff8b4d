import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatCheckpoint,
  generateLogKey,
  parseCheckpoint,
  verifyCheckpoint,
} from '../../../shared/ledger/anchor.ts';
import type { Ed25519Jwk } from '../../../shared/ledger/anchor.ts';
import { noteKeyId, parseNote, signNote, verifyNote } from '../../../shared/ledger/note.ts';
import { fromBase64, fromBase64Url, toBase64, toBase64Url } from '../../../shared/ledger/encoding.ts';
import { h, hex } from './reference.ts';

/**
 * The signed-note and checkpoint formats the ledger's anchors carry (c2sp.org/signed-note,
 * c2sp.org/tlog-checkpoint), held to the Go reference's vectors byte for byte. Anchors and their
 * chain are anchor.test.ts.
 */
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
