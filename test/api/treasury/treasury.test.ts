import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { stripeSignatureHeader } from '../../../shared/treasury/stripe-signature.ts';
import { requests } from '../../helpers/http.ts';
import { at } from '../../helpers/elements.ts';

const WEBHOOK_SECRET = 'whsec_civitas_test';
let t: TestApp;
let bare: TestApp;
let alice: TestSovereign;
let bob: TestSovereign;
let fake: Server;
const stripeCalls: { path: string; auth: string; body: string }[] = [];
let failNext = false;

beforeAll(async () => {
  fake = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      stripeCalls.push({ path: req.url ?? '', auth: String(req.headers.authorization ?? ''), body });
      res.setHeader('content-type', 'application/json');
      if (failNext) {
        failNext = false;
        res.statusCode = 402;
        return res.end(
          JSON.stringify({ error: { message: 'Your card was declined by SECRET-PROVIDER-WORDS' } }),
        );
      }
      if (req.url === '/v1/checkout/sessions')
        return res.end(
          JSON.stringify({
            id: `cs_test_${stripeCalls.length}`,
            url: `https://checkout.stripe.test/c/${stripeCalls.length}`,
          }),
        );
      if (req.url === '/v1/billing_portal/sessions')
        return res.end(JSON.stringify({ id: 'bps_1', url: 'https://billing.stripe.test/p/1' }));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  t = await createTestApp({
    config: {
      treasury: {
        stripeSecretKey: 'sk_test_fake',
        webhookSecret: WEBHOOK_SECRET,
        apiBase: base,
        oraclePriceCents: 700,
        currency: 'usd',
      },
    },
  });
  bare = await createTestApp({
    config: {
      treasury: { stripeSecretKey: undefined, webhookSecret: undefined, apiBase: 'http://127.0.0.1:9' },
    },
  });
  alice = await signedInSovereign(t.app);
  bob = await signedInSovereign(t.app);
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await new Promise((resolve) => fake?.close(resolve));
});

const get = (app: TestApp, url: string, who?: TestSovereign) => requests(() => app.app).get(url, who);
const post = (app: TestApp, url: string, payload: unknown, who?: TestSovereign) =>
  requests(() => app.app).post(url, payload, who);
const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
function signed(url: string, event: unknown, secret = WEBHOOK_SECRET, at = nowSeconds()) {
  const raw = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url,
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripeSignatureHeader(secret, at, raw),
    },
  });
}
const completed = (id: string, object: Record<string, unknown>) => ({
  id,
  type: 'checkout.session.completed',
  data: { object: { payment_status: 'paid', currency: 'usd', ...object } },
});

describe('the Oracle quote (402, never charges)', () => {
  it('GET /api/oracle describes the offer and the quote', async () => {
    const res = await get(t, '/api/oracle');
    expect(res.statusCode).toBe(200);
    expect(res.json().quote).toMatchObject({ price: 700, currency: 'usd', charged: false });
  });
  it('POST /api/oracle without entitlement answers 402 with the quote and calls no provider', async () => {
    const before = stripeCalls.length;
    for (const who of [undefined, alice]) {
      const res = await post(t, '/api/oracle', {}, who);
      expect(res.statusCode).toBe(402);
      const body = res.json();
      expect(body).toMatchObject({ ok: false, reason: 'quote', price: 700, currency: 'usd', charged: false });
      expect(typeof body.what).toBe('string');
      expect(body.how_to_buy).toMatch(/never pay automatically/);
    }
    expect(stripeCalls.length).toBe(before);
    expect((await get(t, '/api/treasury')).json().income_by_purpose).toEqual([]);
  });
  it('GET /api/cost-oracle needs a well-formed actor', async () => {
    expect((await get(t, '/api/cost-oracle')).json().issues[0].path).toBe('actor');
    expect((await get(t, '/api/cost-oracle?actor=bob')).statusCode).toBe(400);
    expect((await get(t, '/api/cost-oracle?actor=sovereign:zzzz')).statusCode).toBe(400);
    const ok = await get(t, '/api/cost-oracle?actor=agent:nova');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ actor: 'agent:nova', quote: { price: 700 } });
  });
});

describe('webhook: verified, applied once per event id', () => {
  it('refuses a missing, wrong or stale signature with 400 and applies nothing', async () => {
    const event = completed('evt_bad', { metadata: { sovereign: alice.id } });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: event,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await signed('/api/stripe/webhook', event, 'whsec_wrong')).statusCode).toBe(400);
    expect((await signed('/api/stripe/webhook', event, WEBHOOK_SECRET, nowSeconds() - 301)).statusCode).toBe(
      400,
    );
    expect((await get(t, '/api/entitlements', alice)).json().entitlements).toEqual([]);
  });
  it('refuses a signed but malformed event with 400', async () => {
    const raw = 'not json';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: raw,
      headers: {
        'content-type': 'text/plain',
        'stripe-signature': stripeSignatureHeader(WEBHOOK_SECRET, nowSeconds(), raw),
      },
    });
    expect([400, 415]).toContain(res.statusCode);
    expect((await signed('/api/stripe/webhook', { id: 'evt_x' })).statusCode).toBe(400);
  });
  it('grants one entitlement when the same event arrives twice and concurrently', async () => {
    const event = completed('evt_once', {
      amount_total: 700,
      metadata: { sovereign: alice.id, purpose: 'oracle' },
    });
    const first = await signed('/api/stripe/webhook', event);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ duplicate: false, outcome: 'applied_oracle' });
    expectDocumented('POST /api/stripe/webhook', first.json());
    const again = await Promise.all(Array.from({ length: 5 }, () => signed('/api/stripe/webhook', event)));
    for (const res of again) expect(res.json()).toMatchObject({ duplicate: true });
    expectDocumented('POST /api/stripe/webhook', at(again, 0).json());
    const entitlements = (await get(t, '/api/entitlements', alice)).json();
    expectDocumented('GET /api/entitlements', entitlements);
    const ents = entitlements.entitlements;
    expect(ents).toHaveLength(1);
    expect(ents[0]).toMatchObject({ capability: 'oracle', uses_total: 1, uses_left: 1 });
  });
  it('applies a fresh event exactly once under concurrency', async () => {
    const event = completed('evt_race', {
      amount_total: 700,
      metadata: { sovereign: bob.id, purpose: 'oracle', uses: '2' },
    });
    const all = await Promise.all(Array.from({ length: 6 }, () => signed('/api/stripe/webhook', event)));
    expect(all.every((r) => r.statusCode === 200)).toBe(true);
    expect(all.filter((r) => r.json().duplicate === false)).toHaveLength(1);
    const ents = (await get(t, '/api/entitlements', bob)).json().entitlements;
    expect(ents).toHaveLength(1);
    expect(ents[0].uses_left).toBe(2);
  });
  it('acknowledges unknown event types without effect', async () => {
    const res = await signed('/api/stripe/webhook', {
      id: 'evt_other',
      type: 'customer.created',
      data: { object: {} },
    });
    expect(res.json()).toMatchObject({ outcome: 'ignored' });
    expectDocumented('POST /api/stripe/webhook', res.json());
  });
});

describe('entitlements and the Oracle report', () => {
  it('GET /api/entitlements needs a session and is private', async () => {
    expect((await get(t, '/api/entitlements')).statusCode).toBe(401);
    const res = await get(t, '/api/entitlements', alice);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(JSON.stringify(res.json())).not.toContain(alice.id);
  });
  it('POST /api/oracle with an entitlement returns the report and consumes one use (receipt treasury.oracle)', async () => {
    const res = await post(t, '/api/oracle', {}, alice);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, uses_left: 0 });
    expect(body.report).toHaveProperty('authors_by_kind.agents');
    expect(body.report).toHaveProperty('authors_by_kind.humans');
    expect(body.report.receipts_by_step['treasury.payment']).toBeGreaterThanOrEqual(1);
    expectDocumented('POST /api/oracle', body);
    const receipt = (await get(t, `/api/receipt/${body.receipt_id}`)).json();
    expect(JSON.stringify(receipt)).toContain('treasury.oracle');
    expect((await post(t, '/api/oracle', {}, alice)).statusCode).toBe(402);
    const usage = (await get(t, '/api/oracle/usage', alice)).json();
    expect(usage).toMatchObject({ uses_total: 1, uses_left: 0, uses_consumed: 1 });
    expect(usage.reports).toHaveLength(1);
    expectDocumented('GET /api/oracle/usage', usage);
  });
  it('concurrent runs never consume more uses than were bought', async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => post(t, '/api/oracle', {}, bob)));
    expect(all.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(all.filter((r) => r.statusCode === 402)).toHaveLength(3);
  });
  it('usage and session need an identity', async () => {
    expect((await get(t, '/api/oracle/usage')).statusCode).toBe(401);
    expect((await get(t, '/api/oracle/session')).statusCode).toBe(401);
    expect((await get(t, '/api/oracle/session?id=nope', alice)).statusCode).toBe(400);
  });
});

describe('checkout doors', () => {
  it('answer 503 provider_unavailable without a Stripe key, in projected words', async () => {
    const s = await signedInSovereign(bare.app);
    for (const url of ['/api/checkout', '/api/oracle/buy', '/api/patronage', '/api/inscribe']) {
      const res = await post(bare, url, { text: 'hello' }, s);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ ok: false, reason: 'provider_unavailable', lane: 'checkout' });
    }
    expect(
      (await signed('/api/stripe/webhook', { id: 'e', type: 't', data: { object: {} } })).statusCode,
    ).toBe(200);
    // A malformed callback is a 400 whatever the configuration; a well-formed one meets the 503.
    const malformed = await bare.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: { a: 1 },
    });
    expect(malformed.statusCode).toBe(400);
    const raw = JSON.stringify({ id: 'evt_x', type: 't', data: { object: {} } });
    const hook = await bare.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripeSignatureHeader(WEBHOOK_SECRET, nowSeconds(), raw),
      },
    });
    expect(hook.statusCode).toBe(503);
  });
  it('refuse bad input with 400 and anonymous callers with 401', async () => {
    expect((await post(t, '/api/patronage', { amount: 'lots' }, alice)).statusCode).toBe(400);
    expect((await post(t, '/api/patronage', { amount: 10 ** 9 }, alice)).statusCode).toBe(400);
    expect((await post(t, '/api/inscribe', {}, alice)).json().issues[0].path).toBe('text');
    expect((await post(t, '/api/inscribe', { text: 'x'.repeat(281) }, alice)).statusCode).toBe(400);
    expect((await post(t, '/api/covenant', { amount: 500 }, alice)).json().issues[0].path).toBe('name');
    expect((await post(t, '/api/oracle/buy', {})).statusCode).toBe(401);
  });
  it('open a checkout on the (fake) provider and never charge; the webhook then grants the purchase', async () => {
    const res = await post(t, '/api/oracle/buy', { uses: 2 }, alice);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, purpose: 'oracle', amount: 1400, charged: false });
    expect(body.checkout_url).toMatch(/^https:\/\/checkout\.stripe\.test/);
    const call = at(stripeCalls, -1);
    expect(call.auth).toBe('Bearer sk_test_fake');
    expect(decodeURIComponent(call.body)).toContain(`metadata[intent]=${body.intent}`);
    expect(call.body).not.toContain(alice.id);
    const session = (await get(t, `/api/oracle/session?id=${body.intent}`, alice)).json();
    expect(session.sessions[0]).toMatchObject({ status: 'open' });
    expectDocumented('GET /api/oracle/session', session);
    expect((await get(t, `/api/oracle/session?id=${body.intent}`, bob)).statusCode).toBe(404);
    await signed(
      '/api/stripe/webhook',
      completed('evt_buy', { amount_total: 1400, customer: 'cus_1', metadata: { intent: body.intent } }),
    );
    expect((await get(t, `/api/oracle/session?id=${body.intent}`, alice)).json().sessions[0].status).toBe(
      'paid',
    );
    expect((await get(t, '/api/oracle/usage', alice)).json().uses_left).toBe(2);
  });
  it("project provider failures: never Stripe's words", async () => {
    failNext = true;
    const res = await post(t, '/api/patronage', { amount: 500 }, alice);
    expect(res.statusCode).toBe(503);
    expect(res.body).not.toContain('SECRET-PROVIDER-WORDS');
    expect(res.body).not.toContain('declined');
  });
  it('form posts continue to the hosted checkout; off-origin return targets are refused', async () => {
    const form = (body: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/patronage',
        payload: new URLSearchParams(body).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: alice.cookie },
      });
    const res = await form({ amount: '500', listed: 'on' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^https:\/\/checkout\.stripe\.test/);
    expect((await form({ amount: '500', return_to: 'https://evil.example/' })).statusCode).toBe(400);
  });
  it('patronage, inscriptions, equity and the patron roster come from applied payments only', async () => {
    const p = (await post(t, '/api/patronage', { amount: 2500, listed: true }, alice)).json();
    const i = (await post(t, '/api/inscribe', { text: 'We were here.' }, bob)).json();
    expect((await get(t, '/api/inscriptions')).json().inscriptions).toEqual([]);
    await signed(
      '/api/stripe/webhook',
      completed('evt_pat', { amount_total: 2500, metadata: { intent: p.intent } }),
    );
    await signed(
      '/api/stripe/webhook',
      completed('evt_ins', { amount_total: 300, metadata: { intent: i.intent } }),
    );
    await signed(
      '/api/stripe/webhook',
      completed('evt_ins', { amount_total: 300, metadata: { intent: i.intent } }),
    );
    const inscriptions = (await get(t, '/api/inscriptions')).json().inscriptions;
    expect(inscriptions).toHaveLength(1);
    expect(inscriptions[0]).toMatchObject({ text: 'We were here.', author: `sovereign:${bob.tag}` });
    const patrons = (await get(t, '/api/patrons')).json();
    expect(patrons.listed).toEqual([
      {
        actor: { kind: 'sovereign', ref: `sovereign:${alice.tag}`, display: `sovereign:${alice.tag}` },
        since: expect.any(String),
      },
    ]);
    const equity = (await get(t, '/api/equity')).json();
    expect(equity).toMatchObject({ ok: true, total_units: 25, top_holder_share: null, gini: null });
    expect(typeof equity.holders === 'string' || typeof equity.holders === 'number').toBe(true);
    const whole = JSON.stringify([patrons, equity, inscriptions]);
    expect(whole).not.toContain(alice.id);
    expect(whole).not.toContain(bob.id);
    const treasury = (await get(t, '/api/treasury')).json();
    expect(
      treasury.balance.find((b: { currency: string }) => b.currency === 'usd').income,
    ).toBeGreaterThanOrEqual(2500 + 300 + 1400);
  });
  it('the portal needs billing:manage', async () => {
    const res = await post(t, '/api/portal', {}, alice);
    expect([403, 200]).toContain(res.statusCode);
  });
});

describe('issuing authorizations by strategy limits', () => {
  const auth = (id: string, amount: number, extra: Record<string, unknown> = {}) => ({
    id: `evt_${id}`,
    type: 'issuing_authorization.request',
    data: { object: { id, pending_request: { amount, currency: 'usd' }, card: { metadata: {} }, ...extra } },
  });
  it('approves within limits, declines above the per-authorization limit, the daily limit and unknown strategies', async () => {
    const ok = await signed('/api/stripe/issuing-authorization', auth('iauth_1', 15_000));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ approved: true });
    expectDocumented('POST /api/stripe/issuing-authorization', ok.json());
    expect((await signed('/api/stripe/issuing-authorization', auth('iauth_2', 20_001))).json()).toMatchObject(
      { approved: false, reason: 'over_per_authorization_limit' },
    );
    const many = await Promise.all(
      ['a', 'b', 'c'].map((x) => signed('/api/stripe/issuing-authorization', auth(`iauth_3${x}`, 15_000))),
    );
    expect(many.filter((r) => r.json().approved)).toHaveLength(2); // 50,000 a day: 15k + 2×15k fit, a fourth does not
    expect(
      (
        await signed(
          '/api/stripe/issuing-authorization',
          auth('iauth_4', 100, { card: { metadata: { strategy: 'nope' } } }),
        )
      ).json(),
    ).toMatchObject({ approved: false, reason: 'unknown_strategy' });
    expect((await signed('/api/stripe/issuing-authorization', auth('iauth_1', 15_000))).json()).toMatchObject(
      { approved: true },
    );
    const strategies = (await get(t, '/api/treasury/strategies')).json().strategies;
    expect(strategies.find((s: { name: string }) => s.name === 'operations')).toMatchObject({
      approved_today: 45_000,
      daily_limit: 50_000,
    });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/issuing-authorization',
      payload: auth('iauth_9', 1),
    });
    expect(unsigned.statusCode).toBe(400);
  });
});
