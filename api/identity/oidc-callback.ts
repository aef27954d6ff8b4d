import { jwtVerify } from 'jose';
import * as client from 'openid-client';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { sha256Hex } from '../agents/credentials.ts';
import { createSovereign } from './sovereigns.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { callbackState, callbackUrl, provider, type ProviderHandle } from './oidc.ts';

/**
 * The provider's answer to a login oidc.ts began (response_mode=form_post): the attempt it names
 * is taken once from `oidc_logins`, the code exchanged with PKCE, and the ID token's subject signs
 * in, crosses as a new sovereign, or is linked to the sovereign who began the login.
 *
 * Human uniqueness: when the ID token carries `civitas_uniqueness` — a compact JWS signed by the
 * provider (verified against the same JWKS) whose payload has iss = the provider, sub = the ID
 * token's sub, aud = our client id and `uniqueness: "verified"` — the sovereign is granted
 * governance:write (docs/identity.md).
 */

export const UNIQUENESS_CLAIM = 'civitas_uniqueness';

export interface CallbackOutcome {
  sovereignId: string;
  tag: string;
  created: boolean;
  linked: boolean;
  uniquenessVerified: boolean;
  returnTo: string;
}

/**
 * Completes a login from the provider's form_post body. Refusals: `invalid_request` for a missing,
 * unknown, reused or expired state; `provider_unavailable` (projected words only) when the
 * provider's answer does not verify or the provider cannot be reached; `conflict` when linking
 * an identity already linked to someone else.
 */
export async function completeLogin(
  ctx: AppContext,
  body: Record<string, unknown>,
): Promise<CallbackOutcome> {
  const state = callbackState(body);
  const now = ctx.clock.now();
  const [login] = await ctx.db.kysely
    .deleteFrom('oidc_logins')
    .where('state_hash', '=', sha256Hex(state))
    .returning(['code_verifier', 'nonce', 'return_to', 'link_sovereign_id', 'expires_at'])
    .execute();
  if (!login || new Date(login.expires_at) <= now) {
    throw new Refusal('invalid_request', {
      issues: [
        { path: 'state', message: 'This sign-in attempt is unknown, already used or expired. Start again.' },
      ],
    });
  }
  if (typeof body.error === 'string') {
    throw new Refusal(
      'provider_unavailable',
      { provider_error: body.error === 'access_denied' ? 'access_denied' : 'error' },
      'The identity provider did not sign you in. Try again, or return with your saved key at /return.',
    );
  }
  const { config, jwks } = await provider(ctx);
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form.set(name, value);
  let claims: client.IDToken;
  try {
    const request = new Request(callbackUrl(ctx), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const tokens = await client.authorizationCodeGrant(config, request, {
      pkceCodeVerifier: login.code_verifier,
      expectedState: state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no id token');
    claims = idClaims;
  } catch {
    throw new Refusal(
      'provider_unavailable',
      {},
      "The identity provider's answer could not be verified, so no one was signed in. Start again.",
    );
  }
  const issuer = claims.iss;
  const subject = claims.sub;
  const uniquenessVerified = await verifyUniqueness(claims[UNIQUENESS_CLAIM], {
    jwks,
    issuer,
    subject,
    audience: ctx.config.idp!.clientId,
  });

  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.kysely
      .selectFrom('sovereigns')
      .select(['id', 'tag'])
      .where('idp_issuer', '=', issuer)
      .where('idp_subject', '=', subject)
      .where('erased_at', 'is', null)
      .forUpdate()
      .execute();
    let sovereign: { id: string; tag: string };
    let created = false;
    let linked = false;
    if (login.link_sovereign_id) {
      if (existing && existing.id !== login.link_sovereign_id) {
        throw new Refusal(
          'conflict',
          {},
          'This provider identity already belongs to another sovereign. Sign in with it, then use that identity.',
        );
      }
      const [target] = await tx.kysely
        .selectFrom('sovereigns')
        .select(['id', 'tag'])
        .where('id', '=', login.link_sovereign_id)
        .where('erased_at', 'is', null)
        .forUpdate()
        .execute();
      if (!target) throw new Refusal('identity_required');
      await tx.query('update sovereigns set idp_issuer = $2, idp_subject = $3 where id = $1', [
        target.id,
        issuer,
        subject,
      ]);
      await recordReceipt(tx, {
        step: 'identity.provider_linked',
        subject: `sovereign:${target.tag}`,
        at: now,
      });
      sovereign = target;
      linked = true;
    } else if (existing) {
      sovereign = existing;
      await recordReceipt(tx, { step: 'identity.sign_in', subject: 'session', at: now });
    } else {
      // A provider identity crossing for the first time: a new sovereign without a key (the
      // provider is how it signs in; it may add a key later by reconciling).
      const made = await createSovereign(ctx, {}, tx);
      await tx.query(
        'update sovereigns set key_hash = null, idp_issuer = $2, idp_subject = $3 where id = $1',
        [made.id, issuer, subject],
      );
      sovereign = { id: made.id, tag: made.tag };
      created = true;
    }
    if (uniquenessVerified) {
      await tx.query(
        'update sovereigns set uniqueness_verified_at = coalesce(uniqueness_verified_at, $2) where id = $1',
        [sovereign.id, now.toISOString()],
      );
      await recordReceipt(tx, {
        step: 'identity.uniqueness_verified',
        subject: `sovereign:${sovereign.tag}`,
        at: now,
      });
    }
    return {
      sovereignId: sovereign.id,
      tag: sovereign.tag,
      created,
      linked,
      uniquenessVerified,
      returnTo: login.return_to,
    };
  });
}

/** Checks the human-uniqueness receipt: a JWS from the provider, bound to this subject and client. */
export async function verifyUniqueness(
  receipt: unknown,
  expected: {
    jwks: ProviderHandle['jwks'];
    issuer: string;
    subject: string;
    audience: string;
  },
): Promise<boolean> {
  if (typeof receipt !== 'string' || receipt.length > 8192) return false;
  try {
    const { payload } = await jwtVerify(receipt, expected.jwks, {
      issuer: expected.issuer,
      audience: expected.audience,
      subject: expected.subject,
    });
    return payload.uniqueness === 'verified';
  } catch {
    return false;
  }
}
