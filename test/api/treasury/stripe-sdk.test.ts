/**
 * Stripe through the official SDK (api/treasury/stripe-client.ts), against a fake Stripe on loopback
 * named by CIVITAS_STRIPE_API_BASE: every call carries the pinned `Stripe-Version` and an
 * Idempotency-Key made from the operation's own id; a checkout the SDK retries (Stripe answered
 * 503) sends the same key again and opens one session.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { createPortalSession, STRIPE_API_VERSION } from '../../../api/treasury/stripe-client.ts';
import { treasuryConfig } from '../../../api/treasury/config.ts';

let t: TestApp;
let alice: TestSovereign;
let fake: Server;
let base: string;
const calls: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
/** How many of the next checkout calls the fake answers 503 (Stripe's "try again"). */
let unavailableNext = 0;
const savedBase = process.env.CIVITAS_STRIPE_API_BASE;

beforeAll(async () => {
  fake = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/checkout/sessions' && unavailableNext > 0) {
        unavailableNext--;
        res.statusCode = 503;
        return res.end(JSON.stringify({ error: { type: 'api_error', message: 'try again' } }));
      }
      if (req.url === '/v1/checkout/sessions')
        return res.end(
          JSON.stringify({ id: `cs_test_${calls.length}`, url: 'https://checkout.stripe.test/c' }),
        );
      if (req.url === '/v1/billing_portal/sessions')
        return res.end(JSON.stringify({ id: 'bps_1', url: 'https://billing.stripe.test/p/1' }));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  // The operator's setting, read from the environment as in production (no apiBase in config).
  process.env.CIVITAS_STRIPE_API_BASE = base;
  t = await createTestApp({
    config: { treasury: { stripeSecretKey: 'sk_test_sdk', webhookSecret: 'whsec_sdk' } },
  });
  alice = await signedInSovereign(t.app);
});
afterAll(async () => {
  if (savedBase === undefined) delete process.env.CIVITAS_STRIPE_API_BASE;
  else process.env.CIVITAS_STRIPE_API_BASE = savedBase;
  await t?.close();
  await new Promise((resolve) => fake?.close(resolve));
});

const buy = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/patronage',
    payload: { amount: 500 },
    headers: { cookie: alice.cookie },
  });

describe('Stripe through the SDK', () => {
  it('sends the pinned Stripe-Version and a key made from the intent id', async () => {
    calls.length = 0;
    const res = await buy();
    expect(res.statusCode, res.body).toBe(200);
    const { intent } = res.json();
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.path).toBe('/v1/checkout/sessions');
    expect(call!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(call!.headers['idempotency-key']).toBe(`checkout-${intent}`);
    expect(call!.headers.authorization).toBe('Bearer sk_test_sdk');
    expect(decodeURIComponent(call!.body)).toContain(`metadata[intent]=${intent}`);
  });

  it('a retried checkout sends the same key again and opens one session', async () => {
    calls.length = 0;
    unavailableNext = 1;
    const res = await buy();
    expect(res.statusCode, res.body).toBe(200);
    const { intent } = res.json();
    expect(calls.map((call) => call.path)).toEqual(['/v1/checkout/sessions', '/v1/checkout/sessions']);
    const keys = calls.map((call) => call.headers['idempotency-key']);
    expect(keys).toEqual([`checkout-${intent}`, `checkout-${intent}`]);
    // Two checkouts are two operations: the next one has a key of its own.
    const next = (await buy()).json();
    expect(next.intent).not.toBe(intent);
    expect(calls.at(-1)!.headers['idempotency-key']).toBe(`checkout-${next.intent}`);
  });

  it('answers 503 in its own words when Stripe stays unavailable past the retries', async () => {
    calls.length = 0;
    unavailableNext = 3;
    const res = await buy();
    expect(res.statusCode).toBe(503);
    expect(res.json().reason).toBe('provider_unavailable');
    expect(res.body).not.toContain('try again');
    expect(new Set(calls.map((call) => call.headers['idempotency-key'])).size).toBe(1);
    expect(calls).toHaveLength(3);
  });

  it('keys the portal session by its own operation id, with the pinned version', async () => {
    calls.length = 0;
    const portal = await createPortalSession(treasuryConfig(t.app.civitas.config), {
      customer: 'cus_portal',
      returnUrl: 'https://civitas.test/endow',
      operationId: 'portal_01TEST',
    });
    expect(portal.url).toBe('https://billing.stripe.test/p/1');
    expect(calls[0]!.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(calls[0]!.headers['idempotency-key']).toBe('portal-portal_01TEST');
  });
});
