/**
 * Federation: the peers this deployment exchanges with and the signed feedback they relay.
 *
 * Peers come from configuration only (CIVITAS_FEDERATION_PEERS: name, origin, Ed25519 public key);
 * none are configured by default, and then every relay is refused (403 peer_refused). A relay is a
 * compact JWS (alg EdDSA) whose protected header `kid` names the peer, with claims iss (= the peer
 * name), aud (= this service's origin), iat (at most 10 minutes old), jti (unique per peer: a
 * repeat is refused 409), and the feedback: topic, body and optionally the remote author's public
 * ref. Accepted relays are stored with a receipt (`people.feedback_relay`).
 */
import { newId } from '../ids.ts';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { sql } from 'kysely';
import type { FederationPeer } from '../config.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { FEEDBACK_TOPICS } from '../record/feedback.ts';
import { Refusal } from '../../shared/errors.ts';
import { parseInput } from '../route.ts';
import { isPublicActor } from '../../shared/actor.ts';

export const RELAY_MAX_AGE_SECONDS = 600;

const relayClaims = z.object({
  jti: z.string().min(8, 'jti must be at least 8 characters').max(128),
  topic: z.enum(FEEDBACK_TOPICS),
  body: z.string().trim().min(1, 'body is required').max(4000, 'body is at most 4000 characters'),
  author: z
    .string()
    .max(80)
    .refine(isPublicActor, 'author must be a public ref (agent:<handle> or sovereign:<tag>)')
    .optional(),
});

function refuse(cause: string, hint: string): never {
  throw new Refusal('peer_refused', { cause }, hint);
}

/**
 * GET /api/federation: the configured peers and what each relayed (counts and time only), read from
 * `federation_peer_relays` (kept by triggers on `federation_relays`, migration 0087): one row per
 * configured peer at most, whatever the peers relayed.
 */
export async function federationView(ctx: AppContext) {
  const names = ctx.config.federationPeers.map((peer) => peer.name);
  const rows =
    names.length === 0
      ? []
      : await ctx.db.kysely
          .selectFrom('federation_peer_relays')
          .select([
            'peer',
            'relays as n',
            sql<string>`to_char(last_received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
              'last',
            ),
          ])
          .where('peer', 'in', names)
          .execute();
  const byPeer = new Map(rows.map((row) => [row.peer, row]));
  const peers = ctx.config.federationPeers.map((peer) => ({
    name: peer.name,
    origin: peer.origin,
    key: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: peer.publicKey },
    relays: byPeer.get(peer.name)?.n ?? 0,
    last_relay_at: byPeer.get(peer.name)?.last ?? null,
  }));
  return {
    ok: true as const,
    schema: 'civitas.federation.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    origin: ctx.config.origin,
    accepts_relays: peers.length > 0,
    peers,
    relay: {
      method: 'POST' as const,
      href: '/api/federation/feedback-relay',
      body: '{ "jws": "<compact JWS>" }',
      jws: `alg EdDSA; header kid = your peer name; claims iss = your peer name, aud = ${ctx.config.origin}, iat (at most ${RELAY_MAX_AGE_SECONDS} s old), jti (unique), topic (${FEEDBACK_TOPICS.join(' | ')}), body (1–4000 characters), optional author (agent:<handle> or sovereign:<tag>)`,
    },
    note:
      peers.length === 0
        ? 'No federation peers are configured on this deployment, so every relay is refused. Peers are added by the operator (CIVITAS_FEDERATION_PEERS).'
        : 'Only the peers listed here may relay, each with its own Ed25519 key.',
  };
}

async function verifyWith(peer: FederationPeer, jws: string, ctx: AppContext) {
  const key = await importJWK({ kty: 'OKP', crv: 'Ed25519', x: peer.publicKey }, 'EdDSA').catch(() =>
    refuse(
      'peer_key_unusable',
      'The configured key of this peer cannot be used; the operator must fix CIVITAS_FEDERATION_PEERS.',
    ),
  );
  try {
    const { payload } = await jwtVerify(jws, key, {
      algorithms: ['EdDSA', 'Ed25519'],
      issuer: peer.name,
      audience: ctx.config.origin,
      currentDate: ctx.clock.now(),
      maxTokenAge: RELAY_MAX_AGE_SECONDS,
      requiredClaims: ['iat', 'jti'],
      clockTolerance: 60,
    });
    return payload;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED')
      refuse('signature_invalid', 'The JWS signature does not verify with the configured key of that peer.');
    if (code === 'ERR_JWT_EXPIRED' || code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
      refuse(
        'claims_invalid',
        `The JWS claims do not fit: iss must be the peer name, aud ${ctx.config.origin}, iat at most ${RELAY_MAX_AGE_SECONDS} s old, jti present.`,
      );
    }
    refuse('jws_invalid', 'The relay is not a valid compact JWS signed with EdDSA.');
  }
}

/** POST /api/federation/feedback-relay. */
export async function relayFeedback(ctx: AppContext, input: { jws: string }) {
  const peers = ctx.config.federationPeers;
  if (peers.length === 0) {
    refuse(
      'no_peers_configured',
      'No federation peers are configured on this deployment, so no relay is accepted. See /api/federation.',
    );
  }
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(input.jws).kid;
  } catch {
    refuse('jws_invalid', 'The relay is not a valid compact JWS.');
  }
  const peer = peers.find((candidate) => candidate.name === kid);
  if (!peer)
    refuse(
      'unknown_peer',
      'The JWS header kid does not name a configured peer. See /api/federation for the peers this service accepts.',
    );
  const payload = await verifyWith(peer, input.jws, ctx);
  const claims = parseInput(relayClaims, payload);
  const now = ctx.clock.now();
  const issuedAt = new Date(Number(payload.iat) * 1000);
  return ctx.db.transaction(async (tx) => {
    const [seen] = await tx.query('select 1 from federation_relays where peer = $1 and jti = $2', [
      peer.name,
      claims.jti,
    ]);
    if (seen)
      throw new Refusal(
        'conflict',
        { cause: 'replayed' },
        'This relay (peer and jti) was already accepted; a relay is applied once.',
      );
    const id = newId('relay', now);
    const receipt = await recordReceipt(tx, {
      step: 'people.feedback_relay',
      subject: `relay:${id}`,
      at: now,
    });
    const [row] = await tx.query(
      `insert into federation_relays (id, peer, jti, topic, body, author, issued_at, received_at, receipt_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (peer, jti) do nothing returning id`,
      [
        id,
        peer.name,
        claims.jti,
        claims.topic,
        claims.body,
        claims.author ?? null,
        issuedAt.toISOString(),
        now.toISOString(),
        receipt.id,
      ],
    );
    if (!row)
      throw new Refusal(
        'conflict',
        { cause: 'replayed' },
        'This relay (peer and jti) was already accepted; a relay is applied once.',
      );
    return { ok: true as const, relay_id: id, peer: peer.name, topic: claims.topic, receipt_id: receipt.id };
  });
}
