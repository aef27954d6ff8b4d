/**
 * Ed25519 log keys as JWK (RFC 8037), through WebCrypto only.
 *
 * `kid` is the RFC 7638 JWK thumbprint: base64url(SHA-256('{"crv":"Ed25519","kty":"OKP","x":"…"}')),
 * so anyone holding the public JWK can recompute it.
 */
import { canonicalJson, fromBase64Url, toBase64Url, utf8 } from './encoding.ts';
import type { Bytes } from './encoding.ts';
import { sha256 } from './hash.ts';

export interface Ed25519Jwk {
  kty: 'OKP';
  crv: 'Ed25519';
  /** base64url public key (32 bytes) */
  x: string;
  /** base64url private seed (32 bytes); present on private keys only */
  d?: string;
  kid?: string;
  alg?: string;
  use?: string;
}

export interface LogKeyPair {
  kid: string;
  privateJwk: Ed25519Jwk;
  publicJwk: Ed25519Jwk;
}

type ImportableJwk = JsonWebKey;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto (globalThis.crypto.subtle) is not available');
  return s;
}

function checkJwk(jwk: unknown, needPrivate: boolean): Ed25519Jwk {
  const k = jwk as Ed25519Jwk | null;
  if (!k || typeof k !== 'object' || k.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.x !== 'string') {
    throw new TypeError('expected an Ed25519 JWK (kty OKP, crv Ed25519)');
  }
  if (fromBase64Url(k.x).length !== 32) throw new TypeError('Ed25519 JWK x must be 32 bytes');
  if (needPrivate && (typeof k.d !== 'string' || fromBase64Url(k.d).length !== 32)) {
    throw new TypeError('Ed25519 private JWK needs a 32-byte d');
  }
  return k;
}

/** The raw 32-byte Ed25519 public key of a JWK (public or private). */
export function publicKeyBytes(jwk: Ed25519Jwk): Bytes {
  return fromBase64Url(checkJwk(jwk, false).x);
}

/** RFC 7638 thumbprint of an Ed25519 JWK (base64url SHA-256 of its required members). */
export async function jwkThumbprint(jwk: Ed25519Jwk): Promise<string> {
  const k = checkJwk(jwk, false);
  return toBase64Url(await sha256(utf8(canonicalJson({ crv: k.crv, kty: k.kty, x: k.x }))));
}

/** The public half of a JWK: kty, crv, x and the descriptive members, never d. */
export function toPublicJwk(jwk: Ed25519Jwk): Ed25519Jwk {
  const k = checkJwk(jwk, false);
  const out: Ed25519Jwk = { kty: 'OKP', crv: 'Ed25519', x: k.x };
  if (k.kid !== undefined) out.kid = k.kid;
  if (k.alg !== undefined) out.alg = k.alg;
  if (k.use !== undefined) out.use = k.use;
  return out;
}

/** A fresh Ed25519 key pair as JWKs, both carrying kid = thumbprint, alg EdDSA, use sig. */
export async function generateLogKey(): Promise<LogKeyPair> {
  const pair = (await subtle().generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const priv = (await subtle().exportKey('jwk', pair.privateKey)) as { x: string; d: string };
  const base: Ed25519Jwk = { kty: 'OKP', crv: 'Ed25519', x: priv.x };
  const kid = await jwkThumbprint(base);
  return {
    kid,
    privateJwk: { ...base, d: priv.d, kid, alg: 'EdDSA', use: 'sig' },
    publicJwk: { ...base, kid, alg: 'EdDSA', use: 'sig' },
  };
}

/** Ed25519 signature (64 bytes) of `message`. */
export async function ed25519Sign(privateJwk: Ed25519Jwk, message: Uint8Array): Promise<Bytes> {
  const k = checkJwk(privateJwk, true);
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: k.x, d: k.d } as ImportableJwk;
  const key = await subtle().importKey('jwk', jwk, { name: 'Ed25519' }, false, ['sign']);
  return new Uint8Array(await subtle().sign({ name: 'Ed25519' }, key, message as Uint8Array<ArrayBuffer>));
}

/** True iff `signature` is a valid Ed25519 signature of `message`; false on any malformed input. */
export async function ed25519Verify(
  publicJwk: Ed25519Jwk,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    const k = checkJwk(publicJwk, false);
    if (signature.length !== 64) return false;
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: k.x } as ImportableJwk;
    const key = await subtle().importKey('jwk', jwk, { name: 'Ed25519' }, false, ['verify']);
    return await subtle().verify(
      { name: 'Ed25519' },
      key,
      signature as Uint8Array<ArrayBuffer>,
      message as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return false;
  }
}
