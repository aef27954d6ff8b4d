import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { requests } from '../../helpers/http.ts';
import {
  fakeStripe,
  signedByStripe,
  type FakeStripe,
  stripeTreasury,
  TREASURY_OFF,
} from '../../helpers/stripe.ts';
import { at } from '../../helpers/elements.ts';

/**
 * Money in and out through Stripe: the checkout doors (refused without a key or with bad input,
 * opening a hosted checkout that never charges, provider failures in projected words), what applied
 * payments make public (patronage, inscriptions, equity, the patron roster), and issuing
 * authorizations held to each strategy's limits. The Oracle's quote and webhook are oracle.test.ts.
 */
const WEBHOOK_SECRET = 'whsec_civitas_test';
let t: TestApp;
let bare: TestApp;
let alice: TestSovereign;
let bob: TestSovereign;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await fakeStripe();
  t = await createTestApp({
    config: {
      treasury: stripeTreasury(stripe, WEBHOOK_SECRET),
    },
  });
  bare = await createTestApp({
    config: {
      treasury: TREASURY_OFF,
    },
  });
  alice = await signedInSovereign(t.app);
  bob = await signedInSovereign(t.app);
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await stripe?.close();
});

const { get, post, form } = requests(() => t.app);
const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
const signed = (door: '/api/stripe/webhook' | '/api/stripe/issuing-authorization', event: unknown) =>
  signedByStripe(t, door, event, WEBHOOK_SECRET);
const completed = (id: string, object: Record<string, unknown>) => ({
  id,
  type: 'checkout.session.completed',
  data: { object: { payment_status: 'paid', currency: 'usd', ...object } },
});

describe('checkout doors', () => {
  it('answer 503 provider_unavailable without a Stripe key, in projected words', async () => {
    const s = await signedInSovereign(bare.app);
    for (const url of ['/api/checkout', '/api/oracle/buy', '/api/patronage', '/api/inscribe']) {
      const res = await requests(() => bare.app).post(url, { text: 'hello' }, s);
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
    const hook = await signedByStripe(
      bare,
      '/api/stripe/webhook',
      { id: 'evt_x', type: 't', data: { object: {} } },
      WEBHOOK_SECRET,
      nowSeconds(),
    );
    expect(hook.statusCode).toBe(503);
  });
  it('refuse bad input with 400 and anonymous callers with 401', async () => {
    expect((await post('/api/patronage', { amount: 'lots' }, alice)).statusCode).toBe(400);
    expect((await post('/api/patronage', { amount: 10 ** 9 }, alice)).statusCode).toBe(400);
    expect((await post('/api/inscribe', {}, alice)).json().issues[0].path).toBe('text');
    expect((await post('/api/inscribe', { text: 'x'.repeat(281) }, alice)).statusCode).toBe(400);
    expect((await post('/api/covenant', { amount: 500 }, alice)).json().issues[0].path).toBe('name');
    expect((await post('/api/oracle/buy', {})).statusCode).toBe(401);
  });
  it('open a checkout on the (fake) provider and never charge; the webhook then grants the purchase', async () => {
    const res = await post('/api/oracle/buy', { uses: 2 }, alice);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, purpose: 'oracle', amount: 1400, charged: false });
    expect(body.checkout_url).toMatch(/^https:\/\/checkout\.stripe\.test/);
    const call = at(stripe.calls, -1);
    expect(call.headers.authorization).toBe('Bearer sk_test_fake');
    expect(decodeURIComponent(call.body)).toContain(`metadata[intent]=${body.intent}`);
    expect(call.body).not.toContain(alice.id);
    const session = (await get(`/api/oracle/session?id=${body.intent}`, alice)).json();
    expect(session.sessions[0]).toMatchObject({ status: 'open' });
    expectDocumented('GET /api/oracle/session', session);
    expect((await get(`/api/oracle/session?id=${body.intent}`, bob)).statusCode).toBe(404);
    await signed(
      '/api/stripe/webhook',
      completed('evt_buy', { amount_total: 1400, customer: 'cus_1', metadata: { intent: body.intent } }),
    );
    expect((await get(`/api/oracle/session?id=${body.intent}`, alice)).json().sessions[0].status).toBe(
      'paid',
    );
    expect((await get('/api/oracle/usage', alice)).json().uses_left).toBe(2);
  });
  it("project provider failures: never Stripe's words", async () => {
    stripe.fail(402, { message: 'Your card was declined by SECRET-PROVIDER-WORDS' });
    const res = await post('/api/patronage', { amount: 500 }, alice);
    expect(res.statusCode).toBe(503);
    expect(res.body).not.toContain('SECRET-PROVIDER-WORDS');
    expect(res.body).not.toContain('declined');
  });
  it('form posts continue to the hosted checkout; off-origin return targets are refused', async () => {
    const res = await form('/api/patronage', { amount: '500', listed: 'on' }, alice);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^https:\/\/checkout\.stripe\.test/);
    expect(
      (await form('/api/patronage', { amount: '500', return_to: 'https://evil.example/' }, alice)).statusCode,
    ).toBe(400);
  });
  it('patronage, inscriptions, equity and the patron roster come from applied payments only', async () => {
    const p = (await post('/api/patronage', { amount: 2500, listed: true }, alice)).json();
    const i = (await post('/api/inscribe', { text: 'We were here.' }, bob)).json();
    expect((await get('/api/inscriptions')).json().inscriptions).toEqual([]);
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
    const inscriptions = (await get('/api/inscriptions')).json().inscriptions;
    expect(inscriptions).toHaveLength(1);
    expect(inscriptions[0]).toMatchObject({ text: 'We were here.', author: `sovereign:${bob.tag}` });
    const patrons = (await get('/api/patrons')).json();
    expect(patrons.listed).toEqual([
      {
        actor: { kind: 'sovereign', ref: `sovereign:${alice.tag}`, display: `sovereign:${alice.tag}` },
        since: expect.any(String),
      },
    ]);
    const equity = (await get('/api/equity')).json();
    expect(equity).toMatchObject({ ok: true, total_units: 25, top_holder_share: null, gini: null });
    expect(typeof equity.holders === 'string' || typeof equity.holders === 'number').toBe(true);
    const whole = JSON.stringify([patrons, equity, inscriptions]);
    expect(whole).not.toContain(alice.id);
    expect(whole).not.toContain(bob.id);
    const treasury = (await get('/api/treasury')).json();
    expect(
      treasury.balance.find((b: { currency: string }) => b.currency === 'usd').income,
    ).toBeGreaterThanOrEqual(2500 + 300 + 1400);
  });
  it('the portal needs billing:manage', async () => {
    const res = await post('/api/portal', {}, alice);
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
    const strategies = (await get('/api/treasury/strategies')).json().strategies;
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
