import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { stripeSignatureHeader } from '../../../shared/treasury/stripe-signature.ts';
import { requests } from '../../helpers/http.ts';
import { fakeStripe, signedByStripe, type FakeStripe, stripeTreasury } from '../../helpers/stripe.ts';
import { at } from '../../helpers/elements.ts';

/**
 * The Oracle, paid for through Stripe's webhook: its quote (a 402 that never charges), the webhook
 * verified and applied once per event id however often it arrives, and the entitlement it grants
 * spent on reports, never more uses than were bought. The checkout doors are payments.test.ts.
 */
const WEBHOOK_SECRET = 'whsec_civitas_test';
let t: TestApp;
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
  alice = await signedInSovereign(t.app);
  bob = await signedInSovereign(t.app);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const { get, post } = requests(() => t.app);
const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
const webhook = (event: unknown, secret = WEBHOOK_SECRET, when = nowSeconds()) =>
  signedByStripe(t, '/api/stripe/webhook', event, secret, when);
const completed = (id: string, object: Record<string, unknown>) => ({
  id,
  type: 'checkout.session.completed',
  data: { object: { payment_status: 'paid', currency: 'usd', ...object } },
});

describe('the Oracle quote (402, never charges)', () => {
  it('GET /api/oracle describes the offer and the quote', async () => {
    const res = await get('/api/oracle');
    expect(res.statusCode).toBe(200);
    expect(res.json().quote).toMatchObject({ price: 700, currency: 'usd', charged: false });
  });
  it('POST /api/oracle without entitlement answers 402 with the quote and calls no provider', async () => {
    const before = stripe.calls.length;
    for (const who of [undefined, alice]) {
      const res = await post('/api/oracle', {}, who);
      expect(res.statusCode).toBe(402);
      const body = res.json();
      expect(body).toMatchObject({ ok: false, reason: 'quote', price: 700, currency: 'usd', charged: false });
      expect(typeof body.what).toBe('string');
      expect(body.how_to_buy).toMatch(/never pay automatically/);
    }
    expect(stripe.calls.length).toBe(before);
    expect((await get('/api/treasury')).json().income_by_purpose).toEqual([]);
  });
  it('GET /api/cost-oracle needs a well-formed actor', async () => {
    expect((await get('/api/cost-oracle')).json().issues[0].path).toBe('actor');
    expect((await get('/api/cost-oracle?actor=bob')).statusCode).toBe(400);
    expect((await get('/api/cost-oracle?actor=sovereign:zzzz')).statusCode).toBe(400);
    const ok = await get('/api/cost-oracle?actor=agent:nova');
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
    expect((await webhook(event, 'whsec_wrong')).statusCode).toBe(400);
    expect((await webhook(event, WEBHOOK_SECRET, nowSeconds() - 301)).statusCode).toBe(400);
    expect((await get('/api/entitlements', alice)).json().entitlements).toEqual([]);
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
    expect((await webhook({ id: 'evt_x' })).statusCode).toBe(400);
  });
  it('grants one entitlement when the same event arrives twice and concurrently', async () => {
    const event = completed('evt_once', {
      amount_total: 700,
      metadata: { sovereign: alice.id, purpose: 'oracle' },
    });
    const first = await webhook(event);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ duplicate: false, outcome: 'applied_oracle' });
    expectDocumented('POST /api/stripe/webhook', first.json());
    const again = await Promise.all(Array.from({ length: 5 }, () => webhook(event)));
    for (const res of again) expect(res.json()).toMatchObject({ duplicate: true });
    expectDocumented('POST /api/stripe/webhook', at(again, 0).json());
    const entitlements = (await get('/api/entitlements', alice)).json();
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
    const all = await Promise.all(Array.from({ length: 6 }, () => webhook(event)));
    expect(all.every((r) => r.statusCode === 200)).toBe(true);
    expect(all.filter((r) => r.json().duplicate === false)).toHaveLength(1);
    const ents = (await get('/api/entitlements', bob)).json().entitlements;
    expect(ents).toHaveLength(1);
    expect(ents[0].uses_left).toBe(2);
  });
  it('acknowledges unknown event types without effect', async () => {
    const res = await webhook({
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
    expect((await get('/api/entitlements')).statusCode).toBe(401);
    const res = await get('/api/entitlements', alice);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(JSON.stringify(res.json())).not.toContain(alice.id);
  });
  it('POST /api/oracle with an entitlement returns the report and consumes one use (receipt treasury.oracle)', async () => {
    const res = await post('/api/oracle', {}, alice);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, uses_left: 0 });
    expect(body.report).toHaveProperty('authors_by_kind.agents');
    expect(body.report).toHaveProperty('authors_by_kind.humans');
    expect(body.report.receipts_by_step['treasury.payment']).toBeGreaterThanOrEqual(1);
    expectDocumented('POST /api/oracle', body);
    const receipt = (await get(`/api/receipt/${body.receipt_id}`)).json();
    expect(JSON.stringify(receipt)).toContain('treasury.oracle');
    expect((await post('/api/oracle', {}, alice)).statusCode).toBe(402);
    const usage = (await get('/api/oracle/usage', alice)).json();
    expect(usage).toMatchObject({ uses_total: 1, uses_left: 0, uses_consumed: 1 });
    expect(usage.reports).toHaveLength(1);
    expectDocumented('GET /api/oracle/usage', usage);
  });
  it('concurrent runs never consume more uses than were bought', async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => post('/api/oracle', {}, bob)));
    expect(all.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(all.filter((r) => r.statusCode === 402)).toHaveLength(3);
  });
  it('usage and session need an identity', async () => {
    expect((await get('/api/oracle/usage')).statusCode).toBe(401);
    expect((await get('/api/oracle/session')).statusCode).toBe(401);
    expect((await get('/api/oracle/session?id=nope', alice)).statusCode).toBe(400);
  });
});
