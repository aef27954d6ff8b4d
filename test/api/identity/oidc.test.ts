import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { startTestProvider, type TestProvider } from '../../helpers/oidc-provider.ts';

let t: TestApp;
let idp: TestProvider;

beforeAll(async () => {
  idp = await startTestProvider({ redirectUri: `${TEST_ORIGIN}/auth/idp/callback` });
  t = await createTestApp({ config: { idp: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } } });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const form = { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' };

async function login(options: { cookie?: string; link?: boolean; returnTo?: string } = {}) {
  const payload = new URLSearchParams({ return_to: options.returnTo ?? '/sovereign' });
  if (options.link) payload.set('link', '1');
  const start = await t.app.inject({ method: 'POST', url: '/auth/idp/login', headers: { ...form, ...(options.cookie ? { cookie: options.cookie } : {}) }, payload: payload.toString() });
  expect(start.statusCode).toBe(303);
  const location = String(start.headers.location);
  const url = new URL(location);
  expect(url.origin).toBe(idp.issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('response_mode')).toBe('form_post');
  expect(url.searchParams.get('state')).toBeTruthy();
  expect(url.searchParams.get('nonce')).toBeTruthy();
  return idp.authorize(location);
}

/** The provider's form_post arrives cross-site, with none of our cookies. */
function callback(fields: Record<string, string>, accept?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/auth/idp/callback',
    headers: { origin: idp.issuer, 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

function sessionOf(res: { cookies: { name: string; value: string }[] }) {
  const cookie = res.cookies.find((c) => c.name === 'civitas_session' && c.value);
  return cookie ? `civitas_session=${cookie.value}` : undefined;
}

async function identity(cookie: string) {
  return (await t.app.inject({ method: 'GET', url: '/identity', headers: { accept: 'application/json', cookie } })).json();
}

describe('OpenID Connect through a real provider', () => {
  it('drives the whole redirect flow: a new sovereign, a session, no governance without a receipt', async () => {
    idp.next.accountId = 'alice';
    idp.next.uniqueness = 'none';
    const post = await login({ returnTo: '/settings/data' });
    expect(post.action).toBe(`${TEST_ORIGIN}/auth/idp/callback`);
    expect(post.fields.code).toBeTruthy();
    const res = await callback(post.fields);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/settings/data');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const cookie = sessionOf(res)!;
    expect(cookie).toBeTruthy();
    const me = await identity(cookie);
    expect(me).toMatchObject({ signed_in: true, sign_in_methods: { provider: true, key: false } });
    expect(me.scopes).not.toContain('governance:write');

    // Signing in again as the same account finds the same sovereign.
    const again = await callback((await login()).fields);
    expect((await identity(sessionOf(again)!)).tag).toBe(me.tag);
  });

  it('grants governance:write for a uniqueness receipt verified against the provider JWKS, never for a forged one', async () => {
    idp.next.accountId = 'mallory';
    idp.next.uniqueness = 'forged';
    const forged = await callback((await login()).fields);
    expect(forged.statusCode).toBe(303);
    expect((await identity(sessionOf(forged)!)).scopes).not.toContain('governance:write');

    idp.next.accountId = 'bob';
    idp.next.uniqueness = 'valid';
    const valid = await callback((await login()).fields, 'application/json');
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toMatchObject({ ok: true, created: true, governance: true });
    const cookie = sessionOf(valid)!;
    expect((await identity(cookie)).scopes).toContain('governance:write');
    // A governance-scoped route now lets the session through the scope check.
    const propose = await t.app.inject({ method: 'POST', url: '/api/constitution/propose', headers: { cookie, 'content-type': 'application/json' }, payload: {} });
    expect(propose.statusCode).not.toBe(403);
    expect(propose.statusCode).not.toBe(401);
  });

  it('uses a state once: a replayed, tampered or missing state signs no one in', async () => {
    idp.next.accountId = 'carol';
    idp.next.uniqueness = 'none';
    const post = await login();
    const first = await callback(post.fields);
    expect(first.statusCode).toBe(303);
    const replay = await callback(post.fields, 'application/json');
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
    expect(sessionOf(replay)).toBeUndefined();

    const fresh = await login();
    const tampered = await callback({ ...fresh.fields, state: fresh.fields.state + 'x' });
    expect(tampered.statusCode).toBe(303);
    expect(tampered.headers.location).toBe('/return?idp=failed');
    expect(sessionOf(tampered)).toBeUndefined();
    const missing = await callback({ code: fresh.fields.code }, 'application/json');
    expect(missing.statusCode).toBe(400);

    // A forged code with the real state fails verification at the provider: no session, no provider words.
    const other = await login();
    const badCode = await callback({ ...other.fields, code: 'forged-code' }, 'application/json');
    expect(badCode.statusCode).toBe(503);
    expect(badCode.json()).toMatchObject({ ok: false, reason: 'provider_unavailable' });
    expect(JSON.stringify(badCode.json())).not.toMatch(/invalid_grant|grant request is invalid/i);
  });

  it('links a provider identity to the signed-in local sovereign (reconcile)', async () => {
    const local = await signedInSovereign(t.app, { callsign: 'Local' });
    idp.next.accountId = 'dora';
    idp.next.uniqueness = 'none';
    const post = await login({ cookie: local.cookie, link: true, returnTo: '/identity' });
    const res = await callback(post.fields);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/identity');
    const me = await identity(sessionOf(res)!);
    expect(me).toMatchObject({ tag: local.tag, callsign: 'Local', sign_in_methods: { provider: true, key: true } });

    // The same provider identity cannot be linked to a second sovereign.
    const someoneElse = await signedInSovereign(t.app);
    const second = await callback((await login({ cookie: someoneElse.cookie, link: true })).fields);
    expect(second.headers.location).toBe('/return?idp=already_linked');
    // Linking needs a session.
    const anon = await t.app.inject({ method: 'POST', url: '/auth/idp/login', headers: { ...form, accept: 'application/json' }, payload: 'link=1' });
    expect(anon.statusCode).toBe(401);
  });
});
