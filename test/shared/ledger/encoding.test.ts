import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  canonicalJson,
  fromBase64,
  fromBase64Url,
  fromHex,
  toBase64,
  toBase64Url,
  toHex,
} from '../../../shared/ledger/encoding.ts';

describe('encodings', () => {
  it('round-trips bytes through hex, base64 and base64url exactly like Node', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        const buf = Buffer.from(bytes);
        expect(toHex(bytes)).toBe(buf.toString('hex'));
        expect(toBase64(bytes)).toBe(buf.toString('base64'));
        expect(toBase64Url(bytes)).toBe(buf.toString('base64url'));
        expect(fromHex(toHex(bytes))).toEqual(bytes);
        expect(fromBase64(toBase64(bytes))).toEqual(bytes);
        expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
      }),
    );
  });

  it('decodes strictly: one text form per byte string', () => {
    expect(() => fromHex('AB')).toThrow();
    expect(() => fromHex('abc')).toThrow();
    expect(() => fromBase64('AA')).toThrow(); // missing padding
    expect(() => fromBase64('AB==')).toThrow(); // non-zero trailing bits
    expect(() => fromBase64('AA==\n')).toThrow();
    expect(() => fromBase64('A-==')).toThrow();
    expect(() => fromBase64Url('AA==')).toThrow();
    expect(fromBase64('AA==')).toEqual(Uint8Array.of(0));
  });

  it('writes canonical JSON (sorted keys, no whitespace) and refuses what JSON would drop', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x\n"'], c: { z: 0, é: 1, Z: 2 } })).toBe(
      '{"a":[true,null,"x\\n\\""],"b":1,"c":{"Z":2,"z":0,"é":1}}',
    );
    expect(() => canonicalJson({ a: undefined })).toThrow();
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson(new Date())).toThrow();
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});
