/**
 * Byte encodings used by the transparency log: lowercase hex (wire hashes), standard padded base64
 * (signatures, checkpoint root hashes — RFC 4648 §4), unpadded base64url (JWK members — RFC 4648 §5),
 * UTF-8, and canonical JSON (RFC 8785 for the value types used here).
 *
 * Self-contained on purpose: no Buffer, no imports, only TextEncoder/TextDecoder, so this file runs
 * unchanged in a browser and in the dependency-free relay client. Decoders are strict (they reject
 * anything that would not re-encode to the same text), so one byte string has one text form.
 */

export type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export function utf8(text: string): Bytes {
  return encoder.encode(text) as Bytes;
}

/** Decodes UTF-8, throwing on invalid sequences (never substitutes U+FFFD). */
export function fromUtf8(bytes: Uint8Array): string {
  return strictDecoder.decode(bytes);
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  // i < a.length === b.length: both reads are in bounds.
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

// ---------------------------------------------------------------- hex

const HEX = '0123456789abcdef';
const HEX_RE = /^(?:[0-9a-f]{2})*$/;

/** Lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!; // i < bytes.length
    out += HEX.charAt(byte >> 4) + HEX.charAt(byte & 15);
  }
  return out;
}

/** Parses lowercase hex of even length; throws TypeError on anything else (uppercase included). */
export function fromHex(hex: string): Bytes {
  if (typeof hex !== 'string' || !HEX_RE.test(hex))
    throw new TypeError('expected lowercase hex of even length');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** True for a SHA-256 hash in wire form: exactly 64 lowercase hex characters. */
export function isHashHex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

// ---------------------------------------------------------------- base64

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// The byte reads below stay within `bytes.length` (the loop bound, then `rest`), and every
// alphabet index is a 6-bit value, so `!` and `charAt` never meet a missing element.
function encode64(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      alphabet.charAt(n >> 18) +
      alphabet.charAt((n >> 12) & 63) +
      alphabet.charAt((n >> 6) & 63) +
      alphabet.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet.charAt(n >> 18) + alphabet.charAt((n >> 12) & 63) + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out +=
      alphabet.charAt(n >> 18) +
      alphabet.charAt((n >> 12) & 63) +
      alphabet.charAt((n >> 6) & 63) +
      (pad ? '=' : '');
  }
  return out;
}

function decode64(text: string, alphabet: string, pad: boolean): Bytes {
  if (typeof text !== 'string') throw new TypeError('expected a base64 string');
  let body = text;
  if (pad) {
    if (text.length % 4 !== 0) throw new TypeError('base64 length must be a multiple of 4');
    if (text.endsWith('==')) body = text.slice(0, -2);
    else if (text.endsWith('=')) body = text.slice(0, -1);
  } else if (text.length % 4 === 1) {
    throw new TypeError('invalid base64url length');
  }
  const values = new Array<number>(body.length);
  for (let i = 0; i < body.length; i++) {
    const v = alphabet.indexOf(body.charAt(i)); // i < body.length, so never ''
    if (v < 0) throw new TypeError('invalid base64 character');
    values[i] = v;
  }
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let o = 0;
  let i = 0;
  // Every `values` read below is within `values.length` (the loop bound, then `rest`).
  for (; i + 3 < values.length; i += 4) {
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6) | values[i + 3]!;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = values.length - i;
  if (rest === 2) {
    if (values[i + 1]! & 15) throw new TypeError('non-canonical base64 (trailing bits)');
    out[o] = ((values[i]! << 18) | (values[i + 1]! << 12)) >> 16;
  } else if (rest === 3) {
    if (values[i + 2]! & 3) throw new TypeError('non-canonical base64 (trailing bits)');
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6);
    out[o] = n >> 16;
    out[o + 1] = (n >> 8) & 255;
  } else if (rest === 1) {
    throw new TypeError('invalid base64 length');
  }
  return out;
}

/** Standard base64 with padding (RFC 4648 §4). */
export function toBase64(bytes: Uint8Array): string {
  return encode64(bytes, B64, true);
}

/** Strict standard padded base64: rejects whitespace, missing padding and non-zero trailing bits. */
export function fromBase64(text: string): Bytes {
  return decode64(text, B64, true);
}

/** base64url without padding (RFC 4648 §5), as used by JWK members. */
export function toBase64Url(bytes: Uint8Array): string {
  return encode64(bytes, B64URL, false);
}

export function fromBase64Url(text: string): Bytes {
  return decode64(text, B64URL, false);
}

// ---------------------------------------------------------------- canonical JSON

/**
 * Canonical JSON (RFC 8785 JCS for strings, finite numbers, booleans, null, arrays and plain
 * objects): object keys sorted by UTF-16 code units, no whitespace, strings and numbers serialised
 * exactly as ECMAScript JSON.stringify does. `undefined`, functions, bigints and non-finite numbers
 * are rejected rather than silently dropped, so two parties never hash different texts.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonical JSON: non-finite number');
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return '[' + value.map((v) => canonicalJson(v)).join(',') + ']';
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null)
        throw new TypeError('canonical JSON: not a plain object');
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(record[k])).join(',') + '}';
    }
    default:
      throw new TypeError(`canonical JSON: unsupported value of type ${typeof value}`);
  }
}
