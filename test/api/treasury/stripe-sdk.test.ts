/**
 * Stripe through the official SDK (api/treasury/stripe-client.ts), against a fake Stripe on loopback
 * named by CIVITAS_STRIPE_API_BASE: every call carries the pinned `Stripe-Version` and an
 * Idempotency-Key made from the operation's own id; a checkout the SDK retries (Stripe answered
 * 503) sends the same key again and opens one session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { createPortalSession, STRIPE_API_VERSION } from '../../../api/treasury/stripe-client.ts';
import { treasuryConfig } from '../../../api/treasury/config.ts';
import { requests } from '../../helpers/http.ts';
import { fakeStripe, type FakeStripe } from '../../helpers/stripe.ts';

let t: TestApp;
let alice: TestSovereign;
let stripe: FakeStripe;
const savedBase = process.env.CIVITAS_STRIPE_API_BASE;

beforeAll(async () => {
  stripe = await fakeStripe();
  // The operator's setting, read from the environment as in production (no apiBase in config).
  process.env.CIVITAS_STRIPE_API_BASE = stripe.base;
  t = await createTestApp({
    config: { treasury: { stripeSecretKey: 'sk_test_sdk', webhookSecret: 'whsec_sdk' } },
  });
  alice = await signedInSovereign(t.app);
});
afterAll(async () => {
  if (savedBase === undefined) delete process.env.CIVITAS_STRIPE_API_BASE;
  else process.env.CIVITAS_STRIPE_API_BASE = savedBase;
  await t?.close();
  await stripe?.close();
});

const { post } = requests(() => t.app);
const buy = () => post('/api/patronage', { amount: 500 }, alice);
/** Stripe's "try again": the next `times` calls answer 503. */
const unavailable = (times: number) => stripe.fail(503, { type: 'api_error', message: 'try again' }, times);

describe('Stripe through the SDK', () => {
  it('sends the pinned Stripe-Version and a key made from the intent id', async () => {
    stripe.calls.length = 0;
    const res = await buy();
    expect(res.statusCode, res.body).toBe(200);
    const { intent } = res.json();
    expect(stripe.calls).toHaveLength(1);
    const [call] = stripe.calls;
    expect(call!.path).toBe('/v1/checkout/sessions');
    expect(call!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(call!.headers['idempotency-key']).toBe(`checkout-${intent}`);
    expect(call!.headers.authorization).toBe('Bearer sk_test_sdk');
    expect(decodeURIComponent(call!.body)).toContain(`metadata[intent]=${intent}`);
  });

  it('a retried checkout sends the same key again and opens one session', async () => {
    stripe.calls.length = 0;
    unavailable(1);
    const res = await buy();
    expect(res.statusCode, res.body).toBe(200);
    const { intent } = res.json();
    expect(stripe.calls.map((call) => call.path)).toEqual(['/v1/checkout/sessions', '/v1/checkout/sessions']);
    const keys = stripe.calls.map((call) => call.headers['idempotency-key']);
    expect(keys).toEqual([`checkout-${intent}`, `checkout-${intent}`]);
    // Two checkouts are two operations: the next one has a key of its own.
    const next = (await buy()).json();
    expect(next.intent).not.toBe(intent);
    expect(stripe.calls.at(-1)!.headers['idempotency-key']).toBe(`checkout-${next.intent}`);
  });

  it('answers 503 in its own words when Stripe stays unavailable past the retries', async () => {
    stripe.calls.length = 0;
    unavailable(3);
    const res = await buy();
    expect(res.statusCode).toBe(503);
    expect(res.json().reason).toBe('provider_unavailable');
    expect(res.body).not.toContain('try again');
    expect(new Set(stripe.calls.map((call) => call.headers['idempotency-key'])).size).toBe(1);
    expect(stripe.calls).toHaveLength(3);
  });

  it('keys the portal session by its own operation id, with the pinned version', async () => {
    stripe.calls.length = 0;
    const portal = await createPortalSession(treasuryConfig(t.app.civitas.config), {
      customer: 'cus_portal',
      returnUrl: 'https://civitas.test/endow',
      operationId: 'portal_01TEST',
    });
    expect(portal.url).toBe('https://billing.stripe.test/p/1');
    expect(stripe.calls[0]!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(stripe.calls[0]!.headers['idempotency-key']).toBe('portal-portal_01TEST');
  });
});
