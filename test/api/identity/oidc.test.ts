import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { crossed as crossedAt, sessionCookie, signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { startTestProvider, type TestProvider } from '../../helpers/oidc-provider.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { entry, missing } from '../../helpers/elements.ts';

let t: TestApp;
let idp: TestProvider;

beforeAll(async () => {
  idp = await startTestProvider({ redirectUri: `${TEST_ORIGIN}/auth/idp/callback` });
  t = await createTestApp({
    config: { idp: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret } },
  });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const form = { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' };

async function login(options: { cookie?: string; link?: boolean; returnTo?: string } = {}) {
  const payload = new URLSearchParams({ return_to: options.returnTo ?? '/sovereign' });
  if (options.link) payload.set('link', '1');
  const start = await t.app.inject({
    method: 'POST',
    url: '/auth/idp/login',
    headers: { ...form, ...(options.cookie ? { cookie: options.cookie } : {}) },
    payload: payload.toString(),
  });
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
    headers: {
      origin: idp.issuer,
      'sec-fetch-site': 'cross-site',
      'content-type': 'application/x-www-form-urlencoded',
      ...(accept ? { accept } : {}),
    },
    payload: new URLSearchParams(fields).toString(),
  });
}

const http = requests(() => t.app);
const { get } = http;
const identity = async (cookie: string) => (await get('/identity', cookie)).json();

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
    const cookie = sessionCookie(res);
    expect(cookie).toBeTruthy();
    const me = await identity(cookie);
    expect(me).toMatchObject({ signed_in: true, sign_in_methods: { provider: true, key: false } });
    expect(me.scopes).not.toContain('governance:write');

    // Signing in again as the same account finds the same sovereign.
    const again = await callback((await login()).fields);
    expect((await identity(sessionCookie(again))).tag).toBe(me.tag);
  });

  it('grants governance:write for a uniqueness receipt verified against the provider JWKS, never for a forged one', async () => {
    idp.next.accountId = 'mallory';
    idp.next.uniqueness = 'forged';
    const forged = await callback((await login()).fields);
    expect(forged.statusCode).toBe(303);
    expect((await identity(sessionCookie(forged))).scopes).not.toContain('governance:write');

    idp.next.accountId = 'bob';
    idp.next.uniqueness = 'valid';
    const valid = await callback((await login()).fields, 'application/json');
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toMatchObject({ ok: true, created: true, governance: true });
    expectDocumented('POST /auth/idp/callback', valid.json());
    const cookie = sessionCookie(valid);
    expect((await identity(cookie)).scopes).toContain('governance:write');
    // A governance-scoped route now lets the session through the scope check.
    const propose = await http.post('/api/constitution/propose', {}, cookie);
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
    expect(() => sessionCookie(replay)).toThrow('no session cookie');

    const fresh = await login();
    const tampered = await callback({ ...fresh.fields, state: fresh.fields.state + 'x' });
    expect(tampered.statusCode).toBe(303);
    expect(tampered.headers.location).toBe('/return?idp=failed');
    expect(() => sessionCookie(tampered)).toThrow('no session cookie');
    const missing = await callback({ code: entry(fresh.fields, 'code') }, 'application/json');
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
    const me = await identity(sessionCookie(res));
    expect(me).toMatchObject({
      tag: local.tag,
      callsign: 'Local',
      sign_in_methods: { provider: true, key: true },
    });

    // The same provider identity cannot be linked to a second sovereign.
    const someoneElse = await signedInSovereign(t.app);
    const second = await callback((await login({ cookie: someoneElse.cookie, link: true })).fields);
    expect(second.headers.location).toBe('/return?idp=already_linked');
    // Linking needs a session.
    const anon = await http.form('/auth/idp/login', 'link=1', {
      origin: TEST_ORIGIN,
      accept: 'application/json',
    });
    expect(anon.statusCode).toBe(401);
  });
});

describe('/reconcile after a provider sign-in: move everything, leave nothing', () => {
  it('absorbs the provider-made sovereign (uniqueness receipt, acts, sessions) into the key holder, who then counts once', async () => {
    const db = t.app.civitas.db;
    // Someone who crossed with a key long ago...
    const crossed = (await crossedAt(t.app, 'Keyholder')).body;
    // ...signs in through the provider without linking: the provider makes a second sovereign, with the uniqueness receipt.
    idp.next.accountId = 'erin';
    idp.next.uniqueness = 'valid';
    const cookie = sessionCookie(await callback((await login()).fields));
    const providerMade = await identity(cookie);
    expect(providerMade.tag).not.toBe(crossed.tag);
    const [orphan = missing()] = await db.query<{ id: string }>(
      'select id from sovereigns where idp_subject is not null and tag = $1',
      [providerMade.tag],
    );
    // It acts: an imprint, an order, a cosign-capable proposal.
    expect(
      (await http.post('/api/quick-imprint', { body: 'made before reconciling' }, cookie)).statusCode,
    ).toBe(200);
    const order = (await http.post('/sovereign/order', { title: 'Reconcile me' }, cookie)).json();
    const proposal = await http.post(
      '/api/constitution/propose',
      { title: 'One person, one row', text: 'A reconciled person counts once.' },
      cookie,
    );
    expect(proposal.statusCode).toBe(200);
    const humans = async () => (await get('/api/stats')).json().humans;
    const before = await humans();

    const res = await http.post('/reconcile', { key: crossed.key }, { origin: TEST_ORIGIN, cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, tag: crossed.tag, provider_moved: true });

    // Nothing stays on the provider-made row: it is gone, and the person counts once.
    expect(await db.query('select 1 from sovereigns where id = $1', [orphan.id])).toEqual([]);
    expect(await humans()).toBe(before - 1);
    const [kept = missing()] = await db.query<{
      id: string;
      idp_subject: string | null;
      uniqueness_verified_at: string | null;
    }>('select id, idp_subject, uniqueness_verified_at from sovereigns where tag = $1 and callsign = $2', [
      crossed.tag,
      'Keyholder',
    ]);
    expect(kept.idp_subject).not.toBeNull();
    expect(kept.uniqueness_verified_at).not.toBeNull();
    // Exactly one eligible ratifier for this person, and the acts moved with the receipt.
    expect(
      await db.query('select 1 from sovereigns where idp_subject = $1 or id = $2', [
        kept.idp_subject,
        orphan.id,
      ]),
    ).toHaveLength(1);
    const [moved = missing()] = await db.query<{ requester_id: string }>(
      'select requester_id from orders where id = $1',
      [order.order_id],
    );
    expect(moved.requester_id).toBe(kept.id);
    const [proposed = missing()] = await db.query<{ proposer_id: string }>(
      'select proposer_id from governance_proposals where id = $1',
      [proposal.json().proposal.id],
    );
    expect(proposed.proposer_id).toBe(kept.id);
    const orders = (await get('/api/orders')).body;
    expect(orders).toContain(`sovereign:${crossed.tag}`);
    expect(orders).not.toContain(`sovereign:${providerMade.tag}`);
    // The raw id of the absorbed row is in no column of any table.
    const tables = await db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables) {
      const rows = await db.query<{ row: string }>(`select t::text as row from "${table_name}" t`);
      for (const { row } of rows)
        expect(row.includes(orphan.id), `${table_name} still names the absorbed row`).toBe(false);
    }
    // The reconciled person now ratifies as one: the constitution view sees one uniqueness receipt.
    const view = (await get('/api/constitution', sessionCookie(res))).json();
    expect(view.viewer).toMatchObject({ signed_in: true, uniqueness_receipt: true });
    // Signing in through the provider again lands on the kept sovereign.
    idp.next.accountId = 'erin';
    const again = await identity(sessionCookie(await callback((await login()).fields)));
    expect(again.tag).toBe(crossed.tag);
  });
});
