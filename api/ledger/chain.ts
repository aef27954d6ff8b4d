/**
 * The anchor chain's verification for /verify/anchor-chain, kept as it grows: a request verifies
 * only the anchors sealed since the chain this process last verified (issue 20), instead of every
 * signature from genesis. Sealed anchors are never rewritten, so the verified chain is a prefix of
 * every later one; a stored anchor that no longer reads exactly as it was verified (tampering, a
 * restore) breaks the prefix and the whole chain is verified again from genesis, so the answer is
 * always the one a full verification gives.
 */
import {
  verifyAnchorChain,
  type Anchor,
  type ChainVerification,
  type Ed25519Jwk,
} from '../../shared/ledger/index.ts';

interface Verified {
  /** the key the chain verified with */
  key: string;
  /** each verified anchor's wire text, in chain order */
  texts: string[];
  /** the hash of the last verified anchor */
  head: string;
}

/** Per database (tests open many in one process), the chain last verified whole. */
const VERIFIED = new WeakMap<object, Verified>();

export async function verifiedAnchorChain(
  db: object,
  anchors: readonly Anchor[],
  publicJwks: readonly Ed25519Jwk[],
): Promise<ChainVerification> {
  // Each anchor verifies with the key it names (keys rotate); the kept prefix holds for one key set.
  const key = JSON.stringify(publicJwks.map((jwk) => [jwk.kid, jwk.x]));
  const texts = anchors.map((a) => JSON.stringify(a));
  const kept = VERIFIED.get(db);
  const from = kept && kept.key === key && isPrefix(kept.texts, texts) ? kept.texts.length : 0;
  const rest = anchors.slice(from);
  // Past the verified prefix, the first new anchor must link to its head and come after its last day.
  const [next] = rest;
  const head = anchors[from - 1];
  const extends_ = head !== undefined && (next === undefined || next.date > head.date);
  const tail = extends_
    ? await verifyAnchorChain(rest, { publicJwks, previous_anchor_hash: kept!.head })
    : await verifyAnchorChain(anchors, { publicJwks });
  // A break past the prefix is verified again from genesis: its index and reason are the full chain's.
  const result = tail.ok || !extends_ ? tail : await verifyAnchorChain(anchors, { publicJwks });
  if (!result.ok) return result;
  VERIFIED.set(db, { key, texts, head: result.head! });
  return { ...result, length: anchors.length };
}

function isPrefix(prefix: readonly string[], of: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > of.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== of[i]) return false;
  return true;
}
