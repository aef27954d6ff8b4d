import { createRemoteJWKSet } from 'jose';
import * as client from 'openid-client';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { sha256Hex } from '../agents/credentials.ts';
import { OidcLogin } from './entities.ts';
import { providerOff } from '../plugins/errors.ts';

/**
 * Sign-in through the configured OpenID Connect provider (openid-client): authorization code with
 * PKCE (S256), `state` and `nonce`, response_mode=form_post. The provider's form_post is a
 * cross-site POST, so no cookie of ours comes back with it: state, nonce, PKCE verifier, return
 * target and (for linking) the signed-in sovereign are kept server-side in `oidc_logins`, keyed
 * by the SHA-256 of `state` and usable once within 10 minutes. openid-client checks the issuer,
 * the audience (our client id), the nonce and the ID token signature against the provider's JWKS.
 * This file discovers the provider and begins a login; oidc-callback.ts completes it.
 */

const LOGIN_LIFETIME_MS = 10 * 60_000;

export interface ProviderHandle {
  config: client.Configuration;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const providers = new WeakMap<AppContext, Promise<ProviderHandle>>();

export function providerConfigured(ctx: AppContext): boolean {
  return Boolean(ctx.config.idp);
}

export function callbackUrl(ctx: AppContext): string {
  return `${ctx.config.origin}/auth/${ctx.config.idpSlug}/callback`;
}

/** The provider's discovered configuration and key set, discovered once per app context. */
export async function provider(ctx: AppContext): Promise<ProviderHandle> {
  const idp = ctx.config.idp;
  if (!idp) throw unconfigured();
  let handle = providers.get(ctx);
  if (!handle) {
    handle = (async () => {
      const issuer = new URL(idp.issuer);
      const config = await client.discovery(
        issuer,
        idp.clientId,
        { client_secret: idp.clientSecret, redirect_uris: [callbackUrl(ctx)], response_types: ['code'] },
        idp.clientSecret ? client.ClientSecretPost(idp.clientSecret) : client.None(),
        issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
      );
      const jwksUri = config.serverMetadata().jwks_uri;
      if (!jwksUri) throw new Error('provider publishes no jwks_uri');
      return { config, jwks: createRemoteJWKSet(new URL(jwksUri)) };
    })();
    providers.set(ctx, handle);
    handle.catch(() => providers.delete(ctx));
  }
  try {
    return await handle;
  } catch {
    throw new Refusal(
      'provider_unavailable',
      {},
      'The identity provider did not answer. Try again later, or return with your saved key at /return.',
    );
  }
}

/**
 * The state of a provider's form_post answer, or `invalid_request`. Checked before anything else,
 * configuration included: a malformed callback is a 400 whether or not a provider is configured.
 */
export function callbackState(body: Record<string, unknown>): string {
  const state = typeof body.state === 'string' ? body.state : '';
  if (!state || state.length > 200) {
    throw new Refusal('invalid_request', {
      issues: [{ path: 'state', message: 'The provider response carries no usable state.' }],
    });
  }
  return state;
}

export function unconfigured(): Refusal {
  // Switched off here: a 503 by configuration, not a failure (providerOff).
  return providerOff(
    new Refusal(
      'provider_unavailable',
      { provider: 'unconfigured', alternative: '/return' },
      'Sign-in through an identity provider is not configured here. Return with your saved Sovereign Key at /return, or cross at /initiate.',
    ),
  );
}

/** Begins a login: stores the attempt and returns the provider's authorization URL. */
export async function beginLogin(
  ctx: AppContext,
  input: { returnTo: string; linkSovereignId?: string },
): Promise<URL> {
  const { config } = await provider(ctx);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const challenge = await client.calculatePKCECodeChallenge(verifier);
  const now = ctx.clock.now();
  const em = ctx.db.em();
  await em.nativeDelete(OidcLogin, { expiresAt: { $lt: now } });
  await em.insert(OidcLogin, {
    stateHash: sha256Hex(state),
    codeVerifier: verifier,
    nonce,
    returnTo: input.returnTo,
    linkSovereignId: input.linkSovereignId ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + LOGIN_LIFETIME_MS),
  });
  return client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(ctx),
    scope: 'openid',
    response_type: 'code',
    response_mode: 'form_post',
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
}
