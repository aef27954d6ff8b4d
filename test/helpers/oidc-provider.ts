/**
 * A real OpenID Provider (oidc-provider) on loopback for identity tests, with an interaction
 * handler that signs in whichever account the test chose and grants consent, so a test can drive
 * the whole redirect flow with plain HTTP requests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import Provider from 'oidc-provider';
import { decodeHtml } from './html.ts';
import { at, firstOf } from './elements.ts';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next login signs in as, and whether their ID token carries a uniqueness receipt. */
  next: { accountId: string; uniqueness: 'valid' | 'forged' | 'none' };
  /** Follows the provider's redirects from an authorization URL to its form_post page; returns the posted fields. */
  authorize(url: string): Promise<{ action: string; fields: Record<string, string> }>;
  close(): Promise<void>;
}

export async function startTestProvider(options: { redirectUri: string }): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'civitas-test';
  const clientSecret = 'civitas-test-secret-0123456789abcdef';

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const forger = (await generateKeyPair('RS256')).privateKey;

  const state: TestProvider['next'] = { accountId: 'alice', uniqueness: 'none' };

  const receipt = async (sub: string, key: CryptoKey) =>
    new SignJWT({ uniqueness: 'verified' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(issuer)
      .setSubject(sub)
      .setAudience(clientId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key);

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub', 'civitas_uniqueness'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: {
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      AuthorizationCode: 60,
    },
    cookies: { keys: ['civitas-test-cookie-key'] },
    async findAccount(_ctx: unknown, id: string) {
      return {
        accountId: id,
        async claims() {
          const claims: Record<string, unknown> = { sub: id };
          if (state.uniqueness !== 'none')
            claims.civitas_uniqueness = await receipt(id, state.uniqueness === 'valid' ? privateKey : forger);
          return claims as { sub: string };
        },
      };
    },
  });
  const callback = provider.callback();

  server.on('request', async (req, res) => {
    try {
      if (req.url?.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: state.accountId } },
            { mergeWithLastSubmission: false },
          );
        } else {
          const grant = new provider.Grant({
            accountId: details.session!.accountId,
            clientId: String(details.params.client_id),
          });
          grant.addOIDCScope('openid');
          const grantId = await grant.save();
          await provider.interactionFinished(
            req,
            res,
            { consent: { grantId } },
            { mergeWithLastSubmission: true },
          );
        }
        return;
      }
      callback(req, res);
    } catch {
      res.statusCode = 500;
      res.end('interaction failed');
    }
  });

  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

  return {
    issuer,
    clientId,
    clientSecret,
    next: state,
    async authorize(start) {
      jar.clear(); // a fresh browser each time: the provider's own session does not carry over
      let url = start;
      for (let hop = 0; hop < 12; hop++) {
        const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader() } });
        for (const line of res.headers.getSetCookie()) {
          const pair = firstOf(line.split(';'));
          const eq = pair.indexOf('=');
          jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
        if (res.status >= 300 && res.status < 400) {
          url = new URL(res.headers.get('location')!, url).href;
          continue;
        }
        const html = await res.text();
        const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`provider answered ${res.status} without a form_post page`);
        const fields: Record<string, string> = {};
        for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g))
          fields[at(m, 1)] = decodeHtml(at(m, 2));
        return { action: decodeHtml(action), fields };
      }
      throw new Error('too many redirects at the provider');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
