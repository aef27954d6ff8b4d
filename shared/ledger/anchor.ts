/**
 * Daily anchors: the sealed head of one UTC day's tree, chained to the previous day's anchor.
 *
 * Wire shape (hashes lowercase hex):
 *   { date: 'YYYY-MM-DD', tree_size, root_hash, previous_anchor_hash, signature, key_id, checkpoint }
 *
 * - anchor body  = { date, key_id, previous_anchor_hash, root_hash, tree_size }
 * - anchor hash  = hex SHA-256(canonical JSON of the body)            (what the next anchor chains to)
 * - signature    = base64 Ed25519 over the same canonical JSON bytes  (binds date, size, root, link)
 * - key_id       = the signing JWK's kid (RFC 7638 thumbprint for keys from generateLogKey)
 * - checkpoint   = C2SP signed note: origin (default `<key name>/<date>`), tree size, base64 root,
 *                  signed by the same key under `keyName`.
 * - the first anchor's previous_anchor_hash is 64 zeros.
 *
 * Origin and key name: tlog-checkpoint says the key name SHOULD match the origin. Each UTC day is a
 * separate tree, and a log MUST NOT sign two inconsistent checkpoints under one origin, so the origin
 * carries the date; the key name stays stable (e.g. `civitas.example/log`) so verifiers and witnesses
 * configure one (name, key) pair. Pass `keyName` equal to the origin to follow the SHOULD literally.
 */
import { canonicalJson, fromBase64, isHashHex, toBase64, toHex, utf8 } from './encoding.ts';
import { sha256 } from './hash.ts';
import { ed25519Sign, ed25519Verify, jwkThumbprint } from './keys.ts';
import type { Ed25519Jwk } from './keys.ts';
import { signCheckpoint, verifyCheckpoint } from './note.ts';

export { generateLogKey, jwkThumbprint, toPublicJwk } from './keys.ts';
export type { Ed25519Jwk, LogKeyPair } from './keys.ts';
export { formatCheckpoint, parseCheckpoint, signCheckpoint, verifyCheckpoint } from './note.ts';
export type { Checkpoint, CheckpointFields, CheckpointVerification } from './note.ts';

export const GENESIS_ANCHOR_HASH = '0'.repeat(64);

export interface AnchorInput {
  date: string;
  tree_size: number;
  root_hash: string;
  previous_anchor_hash: string;
}

export interface AnchorBody extends AnchorInput {
  key_id: string;
}

export interface Anchor extends AnchorBody {
  /** base64 Ed25519 signature over canonicalJson(anchor body) */
  signature: string;
  /** C2SP signed-note checkpoint text */
  checkpoint: string;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isAnchorDate(date: unknown): date is string {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/** Why `value` is not a well-formed anchor body, or null when it is. */
export function anchorBodyProblem(value: unknown): string | null {
  const a = value as Partial<AnchorBody> | null;
  if (!a || typeof a !== 'object') return 'anchor is not an object';
  if (!isAnchorDate(a.date)) return 'date must be YYYY-MM-DD';
  if (!Number.isSafeInteger(a.tree_size) || (a.tree_size as number) < 0)
    return 'tree_size must be a non-negative integer';
  if (!isHashHex(a.root_hash)) return 'root_hash must be 64 lowercase hex characters';
  if (!isHashHex(a.previous_anchor_hash)) return 'previous_anchor_hash must be 64 lowercase hex characters';
  if (typeof a.key_id !== 'string' || a.key_id.length === 0) return 'key_id must be a non-empty string';
  return null;
}

/** Why `value` is not a well-formed anchor (body, signature, checkpoint), or null when it is. */
export function anchorProblem(value: unknown): string | null {
  const body = anchorBodyProblem(value);
  if (body) return body;
  const a = value as Anchor;
  if (typeof a.signature !== 'string' || a.signature.length === 0) return 'signature must be base64';
  if (typeof a.checkpoint !== 'string' || a.checkpoint.length === 0)
    return 'checkpoint must be a signed note';
  return null;
}

/** The hashed and signed part of an anchor (drops signature and checkpoint, and anything else). */
export function anchorBody(anchor: AnchorBody): AnchorBody {
  const { date, tree_size, root_hash, previous_anchor_hash, key_id } = anchor;
  return { date, tree_size, root_hash, previous_anchor_hash, key_id };
}

/** The exact bytes that are hashed for chaining and signed: canonical JSON of the body. */
export function anchorSigningInput(anchor: AnchorBody): Uint8Array {
  const problem = anchorBodyProblem(anchor);
  if (problem) throw new TypeError(problem);
  return utf8(canonicalJson(anchorBody(anchor)));
}

/** Lowercase hex SHA-256 of the canonical anchor body: the next anchor's previous_anchor_hash. */
export async function anchorHash(anchor: AnchorBody): Promise<string> {
  return toHex(await sha256(anchorSigningInput(anchor)));
}

/**
 * Seals a day: signs the body and its checkpoint with the log key. `key_id` is the JWK's kid (or
 * its thumbprint when it has none). The checkpoint origin defaults to `${keyName}/${date}`.
 */
export async function signAnchor(
  body: AnchorInput,
  privateJwk: Ed25519Jwk,
  keyName: string,
  options: { origin?: string } = {},
): Promise<Anchor> {
  const key_id = privateJwk.kid ?? (await jwkThumbprint(privateJwk));
  const full: AnchorBody = anchorBody({ ...body, key_id });
  const signature = toBase64(await ed25519Sign(privateJwk, anchorSigningInput(full)));
  const checkpoint = await signCheckpoint(
    {
      origin: options.origin ?? `${keyName}/${full.date}`,
      tree_size: full.tree_size,
      root_hash: full.root_hash,
    },
    privateJwk,
    keyName,
  );
  return { ...full, signature, checkpoint };
}

async function keyMatches(anchor: AnchorBody, publicJwk: Ed25519Jwk): Promise<boolean> {
  if (publicJwk.kid !== undefined && anchor.key_id === publicJwk.kid) return true;
  return anchor.key_id === (await jwkThumbprint(publicJwk));
}

/**
 * The key among `keys` (a JWKS's keys: the active one and the retired ones) that the anchor names
 * by key_id — its kid, or its RFC 7638 thumbprint for a key published without one — or null.
 * After a rotation each anchor verifies with the key that sealed it, not the newest.
 */
export async function keyForAnchor(
  anchor: Pick<AnchorBody, 'key_id'>,
  keys: readonly Ed25519Jwk[],
): Promise<Ed25519Jwk | null> {
  if (!Array.isArray(keys)) return null;
  for (const key of keys) if (key && (await keyMatches(anchor as AnchorBody, key))) return key;
  return null;
}

/**
 * True iff the anchor is well formed, names this key (kid or thumbprint) and its Ed25519 signature
 * over the canonical body verifies. Never throws.
 */
export async function verifyAnchorSignature(anchor: Anchor, publicJwk: Ed25519Jwk): Promise<boolean> {
  try {
    if (anchorProblem(anchor)) return false;
    if (!(await keyMatches(anchor, publicJwk))) return false;
    const signature = fromBase64(anchor.signature);
    if (signature.length !== 64) return false;
    return await ed25519Verify(publicJwk, anchorSigningInput(anchor), signature);
  } catch {
    return false;
  }
}

export interface AnchorVerification {
  ok: boolean;
  /** null when ok */
  reason: string | null;
}

/**
 * Full anchor check: the signature (verifyAnchorSignature) and the checkpoint — a signed note from
 * the same key whose tree size and root equal the anchor's. `keyName`, if given, must be the
 * checkpoint signature's key name.
 */
export async function verifyAnchor(
  anchor: Anchor,
  publicJwk: Ed25519Jwk,
  keyName?: string,
): Promise<AnchorVerification> {
  const problem = anchorProblem(anchor);
  if (problem) return { ok: false, reason: problem };
  if (!(await verifyAnchorSignature(anchor, publicJwk)))
    return { ok: false, reason: 'anchor signature does not verify with this key' };
  const cp = await verifyCheckpoint(anchor.checkpoint, publicJwk, keyName);
  if (!cp.ok) return { ok: false, reason: `checkpoint: ${cp.reason}` };
  if (cp.checkpoint.tree_size !== anchor.tree_size)
    return { ok: false, reason: 'checkpoint tree size differs from the anchor' };
  if (cp.checkpoint.root_hash !== anchor.root_hash)
    return { ok: false, reason: 'checkpoint root hash differs from the anchor' };
  return { ok: true, reason: null };
}

export interface ChainVerification {
  ok: boolean;
  /** number of anchors checked */
  length: number;
  /** hash of the last anchor when ok (the next page's first previous_anchor_hash), else null */
  head: string | null;
  /** index of the first anchor that breaks the chain, or null */
  broken_at: number | null;
  reason: string | null;
}

/**
 * Checks a run of anchors in order: each is well formed, each previous_anchor_hash equals the hash
 * of the one before (the first's equals `options.previous_anchor_hash`, default 64 zeros — pass the
 * prior page's head to check a later page), dates strictly increase, and, with `publicJwk` (one key)
 * or `publicJwks` (a JWKS's keys, each anchor checked with the one its key_id names), every
 * signature verifies.
 */
export async function verifyAnchorChain(
  anchors: readonly Anchor[],
  options: {
    previous_anchor_hash?: string;
    publicJwk?: Ed25519Jwk;
    /** the JWKS's keys: each anchor verifies with the one its key_id names (across rotations) */
    publicJwks?: readonly Ed25519Jwk[];
  } = {},
): Promise<ChainVerification> {
  const fail = (i: number, reason: string): ChainVerification => ({
    ok: false,
    length: Array.isArray(anchors) ? anchors.length : 0,
    head: null,
    broken_at: i,
    reason,
  });
  if (!Array.isArray(anchors)) return fail(0, 'anchors must be an array');
  let expected = options.previous_anchor_hash ?? GENESIS_ANCHOR_HASH;
  let previousDate = '';
  for (let i = 0; i < anchors.length; i++) {
    const a = anchors[i];
    const signed = options.publicJwk !== undefined || options.publicJwks !== undefined;
    const problem = signed ? anchorProblem(a) : anchorBodyProblem(a);
    if (problem) return fail(i, problem);
    if (a.previous_anchor_hash !== expected) {
      return fail(
        i,
        i === 0
          ? 'first anchor does not link to the expected previous hash'
          : `anchor ${a.date} does not link to ${anchors[i - 1].date}`,
      );
    }
    if (a.date <= previousDate) return fail(i, `anchor ${a.date} is not after ${previousDate}`);
    if (signed) {
      const key = options.publicJwks ? await keyForAnchor(a, options.publicJwks) : options.publicJwk;
      if (!key) return fail(i, `anchor ${a.date} names key ${a.key_id}, which is not among the keys given`);
      if (!(await verifyAnchorSignature(a, key)))
        return fail(i, `anchor ${a.date} signature does not verify`);
    }
    expected = await anchorHash(a);
    previousDate = a.date;
  }
  return { ok: true, length: anchors.length, head: expected, broken_at: null, reason: null };
}
