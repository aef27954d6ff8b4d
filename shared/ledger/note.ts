/**
 * C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 signatures, and transparency-log
 * checkpoints (https://c2sp.org/tlog-checkpoint) carried in them.
 *
 *   <note text, ending in "\n">
 *   <blank line>
 *   — <key name> <base64(4-byte big-endian key ID || 64-byte Ed25519 signature over the note text)>
 *
 *   key ID = SHA-256(key name || 0x0A || 0x01 || 32-byte Ed25519 public key)[:4]
 *
 * A checkpoint's note text is: origin line, tree size (decimal, no leading zeros), base64 root hash,
 * then optional non-empty extension lines. Verification follows the spec: signatures from unknown
 * keys (name and key ID not both matching) are ignored; a signature from the known key that fails
 * rejects the whole note; at least one must verify.
 */
import { concatBytes, fromBase64, fromHex, toBase64, toHex, utf8 } from './encoding.ts';
import type { Bytes } from './encoding.ts';
import { sha256 } from './hash.ts';
import { ed25519Sign, ed25519Verify, publicKeyBytes } from './keys.ts';
import type { Ed25519Jwk } from './keys.ts';

const SIG_PREFIX = '\u2014 '; // em dash, space
/** Verifiers must accept at least 16; we refuse notes with more than this many signature lines. */
export const MAX_NOTE_SIGNATURES = 100;
const ED25519_TYPE = 0x01;

export interface NoteSignature {
  name: string;
  /** uint32 key ID */
  key_id: number;
  /** signature bytes after the key ID */
  signature: Bytes;
}

export interface ParsedNote {
  /** the signed text, including its final newline */
  text: string;
  signatures: NoteSignature[];
}

export class NoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoteError';
  }
}

const CONTROL_RE = /[\u0000-\u0009\u000b-\u001f]/;
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const KEY_NAME_RE = /^[^\s+\u0000-\u001f]+$/u;

export function isValidKeyName(name: unknown): name is string {
  return typeof name === 'string' && KEY_NAME_RE.test(name) && !LONE_SURROGATE_RE.test(name);
}

function checkText(text: string): void {
  if (typeof text !== 'string') throw new NoteError('note must be a string');
  if (CONTROL_RE.test(text)) throw new NoteError('note contains control characters');
  if (LONE_SURROGATE_RE.test(text)) throw new NoteError('note is not valid UTF-8');
}

/** The first 4 bytes as a big-endian uint32; callers pass at least 4 bytes (a hash, a checked signature). */
function uint32BigEndian(bytes: Uint8Array): number {
  if (bytes.length < 4) throw new RangeError('expected at least 4 bytes');
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

/** Key ID of an Ed25519 note key: first 4 bytes (big-endian uint32) of SHA-256(name || \n || 0x01 || pub). */
export async function noteKeyId(keyName: string, publicKey: Uint8Array): Promise<number> {
  if (!isValidKeyName(keyName)) throw new NoteError('invalid key name');
  if (publicKey.length !== 32) throw new NoteError('Ed25519 public key must be 32 bytes');
  const h = await sha256(concatBytes(utf8(keyName), Uint8Array.of(0x0a, ED25519_TYPE), publicKey));
  return uint32BigEndian(h);
}

/** Splits a signed note into its text and signature lines (no verification). Throws NoteError. */
export function parseNote(note: string): ParsedNote {
  checkText(note);
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('note has no signature block');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block.length === 0 || !block.endsWith('\n')) throw new NoteError('malformed signature block');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) throw new NoteError('too many signatures');
  const signatures = lines.map((line): NoteSignature => {
    if (!line.startsWith(SIG_PREFIX)) throw new NoteError('malformed signature line');
    const rest = line.slice(SIG_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = rest.slice(0, space);
    if (space < 0 || !isValidKeyName(name)) throw new NoteError('malformed signature line');
    let raw: Bytes;
    try {
      raw = fromBase64(rest.slice(space + 1));
    } catch {
      throw new NoteError('malformed signature line');
    }
    if (raw.length < 5) throw new NoteError('malformed signature line');
    const key_id = uint32BigEndian(raw);
    return { name, key_id, signature: raw.slice(4) };
  });
  return { text, signatures };
}

function checkNoteText(text: string): void {
  checkText(text);
  if (text.length === 0 || !text.endsWith('\n')) throw new NoteError('note text must end with a newline');
}

/** One signature line for `text` under (keyName, privateJwk). */
export async function signatureLine(text: string, privateJwk: Ed25519Jwk, keyName: string): Promise<string> {
  checkNoteText(text);
  const id = await noteKeyId(keyName, publicKeyBytes(privateJwk));
  const sig = await ed25519Sign(privateJwk, utf8(text));
  const idBytes = Uint8Array.of(id >>> 24, (id >>> 16) & 255, (id >>> 8) & 255, id & 255);
  return `${SIG_PREFIX}${keyName} ${toBase64(concatBytes(idBytes, sig))}\n`;
}

/** Signs `text` (which must end in a newline) into a signed note with one signature. */
export async function signNote(text: string, privateJwk: Ed25519Jwk, keyName: string): Promise<string> {
  return `${text}\n${await signatureLine(text, privateJwk, keyName)}`;
}

export type NoteVerification =
  { ok: true; text: string; key_name: string; signatures: NoteSignature[] } | { ok: false; reason: string };

/**
 * Verifies a signed note against one trusted Ed25519 key. With `keyName`, only lines carrying that
 * name (and its key ID) count as the known key; without it, any line whose key ID matches its own
 * name and this public key counts (the public key is what is trusted; the name is a label).
 */
export async function verifyNote(
  note: string,
  publicJwk: Ed25519Jwk,
  keyName?: string,
): Promise<NoteVerification> {
  let parsed: ParsedNote;
  let pub: Bytes;
  try {
    parsed = parseNote(note);
    pub = publicKeyBytes(publicJwk);
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : 'malformed note' };
  }
  if (keyName !== undefined && !isValidKeyName(keyName)) return { ok: false, reason: 'invalid key name' };
  const message = utf8(parsed.text);
  let verifiedName: string | null = null;
  const ids = new Map<string, number>();
  for (const sig of parsed.signatures) {
    if (keyName !== undefined && sig.name !== keyName) continue;
    let id = ids.get(sig.name);
    if (id === undefined) {
      id = await noteKeyId(sig.name, pub);
      ids.set(sig.name, id);
    }
    if (sig.key_id !== id) continue; // an unknown key: ignored, as the spec requires
    if (!(await ed25519Verify(publicJwk, message, sig.signature))) {
      return { ok: false, reason: `invalid signature for key ${sig.name}` };
    }
    verifiedName ??= sig.name;
  }
  if (verifiedName === null) return { ok: false, reason: 'no signature from the trusted key' };
  return { ok: true, text: parsed.text, key_name: verifiedName, signatures: parsed.signatures };
}

// ---------------------------------------------------------------- checkpoints

export interface CheckpointFields {
  origin: string;
  tree_size: number;
  /** lowercase hex (32 bytes) */
  root_hash: string;
  extensions?: string[];
}

export interface Checkpoint {
  origin: string;
  tree_size: number;
  root_hash: string;
  extensions: string[];
  /** the checkpoint's note text (what is signed) */
  text: string;
  /** signature lines, when parsed from a signed note (not verified by parseCheckpoint) */
  signatures: NoteSignature[];
}

const ORIGIN_RE = /^[^\s+\u0000-\u001f]+$/u;

/** The checkpoint note text: origin, tree size, base64 root hash, extension lines; each ending "\n". */
export function formatCheckpoint(fields: CheckpointFields): string {
  const { origin, tree_size, root_hash, extensions = [] } = fields;
  if (typeof origin !== 'string' || !ORIGIN_RE.test(origin) || LONE_SURROGATE_RE.test(origin)) {
    throw new NoteError('origin must be non-empty, without spaces, plus signs or control characters');
  }
  if (!Number.isSafeInteger(tree_size) || tree_size < 0)
    throw new NoteError('tree size must be a non-negative integer');
  let root: Bytes;
  try {
    root = fromHex(root_hash);
  } catch {
    throw new NoteError('root hash must be lowercase hex');
  }
  if (root.length !== 32) throw new NoteError('root hash must be 32 bytes');
  for (const line of extensions) {
    if (typeof line !== 'string' || line.length === 0 || line.includes('\n'))
      throw new NoteError('extension lines must be non-empty single lines');
    checkText(line);
  }
  return [origin, String(tree_size), toBase64(root), ...extensions].map((l) => l + '\n').join('');
}

function parseCheckpointText(text: string): Omit<Checkpoint, 'signatures'> {
  checkNoteText(text);
  const lines = text.slice(0, -1).split('\n');
  const [origin, size, root, ...extensions] = lines;
  if (origin === undefined || size === undefined || root === undefined)
    throw new NoteError('checkpoint needs origin, size and root hash lines');
  if (lines.some((l) => l.length === 0)) throw new NoteError('checkpoint lines must be non-empty');
  if (!/^(?:0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size)))
    throw new NoteError('malformed tree size');
  let rootBytes: Bytes;
  try {
    rootBytes = fromBase64(root);
  } catch {
    throw new NoteError('malformed root hash');
  }
  if (rootBytes.length !== 32) throw new NoteError('root hash must be 32 bytes');
  return { origin, tree_size: Number(size), root_hash: toHex(rootBytes), extensions, text };
}

/**
 * Parses a checkpoint, given either as a signed note or as its bare note text. Does NOT verify any
 * signature: per the spec the contents must be ignored until `verifyCheckpoint` succeeds.
 */
export function parseCheckpoint(text: string): Checkpoint {
  if (typeof text === 'string' && text.includes('\n\n')) {
    const note = parseNote(text);
    return { ...parseCheckpointText(note.text), signatures: note.signatures };
  }
  return { ...parseCheckpointText(text), signatures: [] };
}

/** Formats and signs a checkpoint as a signed note. */
export async function signCheckpoint(
  fields: CheckpointFields,
  privateJwk: Ed25519Jwk,
  keyName: string,
): Promise<string> {
  return signNote(formatCheckpoint(fields), privateJwk, keyName);
}

export type CheckpointVerification =
  { ok: true; checkpoint: Checkpoint; key_name: string } | { ok: false; reason: string };

/**
 * Verifies a signed checkpoint with a trusted Ed25519 key (and key name, if given), then parses it.
 * `options.origin`, if given, must equal the checkpoint's origin line.
 */
export async function verifyCheckpoint(
  text: string,
  publicJwk: Ed25519Jwk,
  keyName?: string,
  options: { origin?: string } = {},
): Promise<CheckpointVerification> {
  const note = await verifyNote(text, publicJwk, keyName);
  if (!note.ok) return note;
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(text);
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : 'malformed checkpoint' };
  }
  if (options.origin !== undefined && checkpoint.origin !== options.origin) {
    return { ok: false, reason: `origin ${checkpoint.origin} is not the expected ${options.origin}` };
  }
  return { ok: true, checkpoint, key_name: note.key_name };
}
