/**
 * Issue 10 points 4, 5 and 12: the agent door answers JSON whatever the encoding, handles that
 * name routes are reserved, and malformed bodies are refused (400) on every door, before any
 * provider's absence (503) is told.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { RESERVED_HANDLES } from '../../../shared/agents/reserved.ts';
import { ROUTES } from '../../../shared/registry/index.ts';
import { at, firstOf, missing } from '../../helpers/elements.ts';
import { TREASURY_OFF } from '../../helpers/stripe.ts';

let t: TestApp;
beforeAll(async () => {
  // No provider configured: no mail, no identity provider, no Stripe, no federation peer.
  t = await createTestApp({
    config: {
      smtpUrl: undefined,
      idp: undefined,
      federationPeers: [],
      treasury: TREASURY_OFF,
    },
  });
});
afterAll(async () => t?.close());

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
const count = async (sql: string, params: unknown[] = []) =>
  Number(firstOf(await t.database.db.query<{ n: string | number }>(sql, params)).n);
const rawJson = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
  });

describe('the agent door answers JSON whatever the request encoding (point 4)', () => {
  it('a form-encoded first imprint answers 200 JSON with the continuity secret, and the secret works', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: 'agent=form-agent&body=first+light+by+curl',
      headers: formHeaders,
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain('application/json');
    expect(first.headers.location).toBeUndefined();
    expect(first.headers['cache-control']).toContain('no-store');
    const made = first.json();
    expect(made).toMatchObject({ ok: true, unattested: true });
    expect(made.continuity_secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    // The secret handed back is the one stored (hash), so the handle can prove itself later.
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: 'agent=form-agent&body=second',
      headers: { ...formHeaders, 'x-civitas-continuity': made.continuity_secret },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().continuity_secret).toBeUndefined();
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: 'agent=form-agent&body=x',
      headers: { ...formHeaders, 'x-civitas-continuity': 'cs_wrong' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('a human form without a session still goes back to /imprint (303)', async () => {
    const human = await signedInSovereign(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: `sovereign_id=${human.tag}&body=from+the+form`,
      headers: formHeaders,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/imprint\?recorded=\d+/);
  });
});

describe('handles that name routes are reserved (point 5)', () => {
  it('derives the reserved set from every literal segment under /api/agent/ in the registry', () => {
    const segments = new Set(
      ROUTES.filter((r) => r.path.startsWith('/api/agent/'))
        .map((r) => at(r.path.split('/'), 3))
        .filter((s) => !s.startsWith('{')),
    );
    expect([...RESERVED_HANDLES].sort()).toEqual([...segments].sort());
    expect(RESERVED_HANDLES.has('certificate')).toBe(true);
    expect(RESERVED_HANDLES.has('imprint')).toBe(true);
  });

  it('refuses each reserved handle with a clear 400, in JSON and form, and creates nothing', async () => {
    for (const handle of RESERVED_HANDLES) {
      for (const variant of [handle, handle.toUpperCase()]) {
        const json = await t.app.inject({
          method: 'POST',
          url: '/api/agent/imprint',
          payload: { agent: variant, body: 'hello' },
        });
        expect(json.statusCode, variant).toBe(400);
        expect(json.json()).toMatchObject({
          ok: false,
          reason: 'invalid_request',
          issues: [{ path: 'agent' }],
        });
        expect(json.json().issues[0].message).toContain('reserved');
        const form = await t.app.inject({
          method: 'POST',
          url: '/api/agent/imprint',
          payload: `agent=${variant}&body=hello`,
          headers: formHeaders,
        });
        expect(form.statusCode, variant).toBe(400);
      }
      expect(await count('select count(*) as n from agents where handle = $1', [handle])).toBe(0);
    }
    // The route keeps its meaning: /api/agent/certificate is the certificate door, not a status.
    const certificate = await t.app.inject({
      method: 'GET',
      url: '/api/agent/certificate?handle=form-agent',
    });
    expect(certificate.statusCode).toBe(200);
  });

  it('refuses a reserved handle through the MCP twin too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'civitas_imprint', arguments: { agent: 'certificate', body: 'hi' } },
      },
    });
    expect(res.statusCode).toBe(200);
    const text = res.body.includes('data:') ? at(res.body.split('data:'), 1) : res.body;
    const envelope = JSON.parse(text);
    expect(envelope.result.isError).toBe(true);
    expect(JSON.stringify(envelope.result.content)).toContain('reserved');
    expect(await count("select count(*) as n from agents where handle = 'certificate'")).toBe(0);
  });
});

describe('malformed bodies are refused on every door (point 12)', () => {
  it('refuses invalid UTF-8 in a JSON body with 400 invalid_request and stores nothing', async () => {
    const before = await count('select count(*) as n from imprints');
    const bytes = Buffer.concat([
      Buffer.from('{"agent":"utf8-agent","body":"caf'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const res = await rawJson('/api/agent/imprint', bytes);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
    expect(res.json().issues[0].message).toContain('UTF-8');
    expect(await count('select count(*) as n from imprints')).toBe(before);
    expect(await count("select count(*) as n from agents where handle = 'utf8-agent'")).toBe(0);
    // An overlong encoding and a lone surrogate half are invalid too; valid multi-byte text passes.
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
    ]) {
      const r = await rawJson(
        '/api/agent/imprint',
        Buffer.concat([Buffer.from('{"agent":"utf8-agent","body":"'), Buffer.from(bad), Buffer.from('"}')]),
      );
      expect(r.statusCode).toBe(400);
    }
    const ok = await rawJson(
      '/api/agent/imprint',
      Buffer.from('{"agent":"utf8-agent","body":"café ✓ 𝄞"}', 'utf8'),
    );
    expect(ok.statusCode).toBe(200);
    const [row = missing()] = await t.database.db.query<{ body: string }>(
      'select body from imprints where sequence = $1',
      [ok.json().sequence],
    );
    expect(row.body).toBe('café ✓ 𝄞');
  });

  it('POST /initiate with null, [] or a scalar creates no account', async () => {
    const before = await count('select count(*) as n from sovereigns');
    for (const body of ['null', '[]', '"x"', '1', 'true']) {
      const res = await rawJson('/initiate', body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
      expect(res.headers['set-cookie'], body).toBeUndefined();
    }
    expect(await count('select count(*) as n from sovereigns')).toBe(before);
    const good = await rawJson('/initiate', '{}');
    expect(good.statusCode).toBe(200);
    expect(await count('select count(*) as n from sovereigns')).toBe(before + 1);
  });

  it('refuses a JSON array or null on other doors too', async () => {
    for (const url of [
      '/api/agent/imprint',
      '/api/continuum/heartbeat',
      '/api/checkout',
      '/api/federation/feedback-relay',
    ]) {
      for (const body of ['null', '[]'])
        expect((await rawJson(url, body)).statusCode, `${url} ${body}`).toBe(400);
    }
  });

  it('provider-gated doors answer 400 to a malformed request and 503 only to a well-formed one', async () => {
    const me = await signedInSovereign(t.app);
    const withMe = { cookie: me.cookie };
    // Mail (not configured).
    expect(
      (await rawJson('/sovereign/email', '{"action":"set","email":"not an address"}', withMe)).statusCode,
    ).toBe(400);
    expect((await rawJson('/sovereign/email', '{"action":"fly"}', withMe)).statusCode).toBe(400);
    expect(
      (await rawJson('/sovereign/email', '{"action":"set","email":"me@example.org"}', withMe)).statusCode,
    ).toBe(503);
    // OpenID Connect (not configured): login and callback.
    expect((await rawJson('/auth/idp/login', '{"link":"maybe"}')).statusCode).toBe(400);
    expect((await rawJson('/auth/idp/login', '{}')).statusCode).toBe(503);
    const callback = (payload: string) =>
      rawJson('/auth/idp/callback', payload, { accept: 'application/json' });
    expect((await callback('{}')).statusCode).toBe(400);
    expect((await callback(JSON.stringify({ state: 'x'.repeat(201) }))).statusCode).toBe(400);
    expect((await callback('{"state":"s1","code":"c1"}')).statusCode).toBe(503);
    // Stripe (not configured): checkout doors and the signed callbacks.
    expect((await rawJson('/api/patronage', '{"amount":"lots"}', withMe)).statusCode).toBe(400);
    expect((await rawJson('/api/inscribe', '{}', withMe)).statusCode).toBe(400);
    expect((await rawJson('/api/patronage', '{"amount":500}', withMe)).statusCode).toBe(503);
    for (const url of ['/api/stripe/webhook', '/api/stripe/issuing-authorization']) {
      expect((await rawJson(url, '{"a":1}', { 'stripe-signature': 't=1,v1=00' })).statusCode, url).toBe(400);
      expect((await rawJson(url, '{"id":"evt_1","type":"t","data":{"object":{}}}')).statusCode, url).toBe(
        400,
      );
      expect(
        (
          await rawJson(url, '{"id":"evt_1","type":"t","data":{"object":{}}}', {
            'stripe-signature': 't=1,v1=00',
          })
        ).statusCode,
        url,
      ).toBe(503);
    }
    // Federation (no peer): a body without a JWS is malformed (400); a well-formed one is refused as unknown peer.
    expect((await rawJson('/api/federation/feedback-relay', '{}')).statusCode).toBe(400);
    const relay = await rawJson('/api/federation/feedback-relay', '{"jws":"a.b.c"}');
    expect(relay.statusCode).toBe(403);
  });
});
