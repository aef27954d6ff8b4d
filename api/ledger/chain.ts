/**
 * The anchor chain's verification for /verify/anchor-chain, from a stored verified point (issue
 * 20): a request verifies only the anchors sealed since the chain last verified whole
 * (`anchor_chain_verified`, migration 0080), from its head, instead of every signature from
 * genesis. Sealed anchors are never rewritten: a change to a stored anchor (tampering, a restore)
 * or one inserted at or before the verified day clears the point in the statement that makes it,
 * and the next request verifies the whole chain from genesis, so the answer is always the one a
 * full verification gives. A rotation of the keys (another key set) verifies from genesis too.
 */
import { verifyAnchorChain, type ChainVerification, type Ed25519Jwk } from '../../shared/ledger/index.ts';
import type { AppContext } from '../context.ts';
import { allAnchors, anchorsAfter, wireAnchor } from './anchors.ts';
import { anchorKeys } from './log.ts';
import type { RowOf } from '../db/rows.ts';
import type { AnchorChainVerified } from './entities.ts';

type Point = Pick<RowOf<typeof AnchorChainVerified>, 'generation' | 'keys' | 'through' | 'head' | 'length'>;

const fingerprint = (jwks: readonly Ed25519Jwk[]) =>
  JSON.stringify(jwks.map((jwk) => [jwk.kid, jwk.x]).sort());

export async function anchorChainVerification(
  ctx: Pick<AppContext, 'keys' | 'db' | 'clock'>,
): Promise<ChainVerification> {
  const [point] = await ctx.db.query<Point>(
    `select generation, keys, to_char(through, 'YYYY-MM-DD') as through, head, length
       from anchor_chain_verified where id = 1`,
  );
  if (point?.through && point.head && point.keys !== null && point.length !== null) {
    const rest = await anchorsAfter(ctx.db, point.through);
    const keys = await anchorKeys(
      ctx,
      rest.map((a) => a.key_id),
    );
    if (fingerprint(keys) === point.keys) {
      const tail = await verifyAnchorChain(rest.map(wireAnchor), {
        publicJwks: keys,
        previous_anchor_hash: point.head,
      });
      if (tail.ok) {
        const length = Number(point.length) + rest.length;
        const last = rest.at(-1);
        if (last) await keep(ctx, point, fingerprint(keys), last.date, tail.head!, length);
        return { ...tail, length };
      }
      // A break past the point: its index and reason are the full chain's (below).
    }
  }
  const anchors = await allAnchors(ctx.db);
  const keys = await anchorKeys(
    ctx,
    anchors.map((a) => a.key_id),
  );
  const result = await verifyAnchorChain(anchors.map(wireAnchor), { publicJwks: keys });
  const last = anchors.at(-1);
  if (result.ok && last && point)
    await keep(ctx, point, fingerprint(keys), last.date, result.head!, anchors.length);
  return { ...result, length: anchors.length };
}

/** Stores the verified point, unless the anchors changed since `read` was read (its generation). */
async function keep(
  ctx: Pick<AppContext, 'db'>,
  read: Point,
  keys: string,
  through: string,
  head: string,
  length: number,
) {
  await ctx.db.query(
    `update anchor_chain_verified set keys = $2, through = $3::date, head = $4, length = $5
      where id = 1 and generation = $1 and (through is null or through < $3::date or keys is distinct from $2)`,
    [read.generation, keys, through, head, length],
  );
}
