/**
 * Stripe for tests: a fake Stripe API on loopback (what `treasury.apiBase` or
 * CIVITAS_STRIPE_API_BASE names) that records every call and fails when told to, and webhooks
 * signed the way Stripe signs them (over the exact raw body).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripeSignatureHeader } from '../../shared/treasury/stripe-signature.ts';
import type { TestApp } from './app.ts';

export interface StripeCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeStripe {
  /** The API base to configure. */
  base: string;
  /** Every call received, in order (a test may empty it). */
  calls: StripeCall[];
  /** Answers the next `times` calls with `status` and `{ error }` (`Infinity`: until `recover()`). */
  fail(status: number, error: Record<string, unknown>, times?: number): void;
  recover(): void;
  close(): Promise<void>;
}

/**
 * Opens checkout sessions (each with an id of its own) and billing-portal sessions; anything else
 * is a 404.
 */
export async function fakeStripe(): Promise<FakeStripe> {
  const calls: StripeCall[] = [];
  let sessions = 0;
  let failing: { status: number; error: Record<string, unknown>; left: number } | undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (failing && failing.left > 0) {
        failing.left--;
        res.statusCode = failing.status;
        return res.end(JSON.stringify({ error: failing.error }));
      }
      if (req.url === '/v1/checkout/sessions') {
        sessions++;
        return res.end(
          JSON.stringify({ id: `cs_test_${sessions}`, url: `https://checkout.stripe.test/c/${sessions}` }),
        );
      }
      if (req.url === '/v1/billing_portal/sessions')
        return res.end(JSON.stringify({ id: 'bps_1', url: 'https://billing.stripe.test/p/1' }));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    fail: (status, error, times = 1) => void (failing = { status, error, left: times }),
    recover: () => void (failing = undefined),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * POSTs `event` to one of Stripe's doors as Stripe does: the exact raw JSON body, signed with
 * `secret` at `at` (seconds; the app's clock by default).
 */
export function signedByStripe(
  t: TestApp,
  door: '/api/stripe/webhook' | '/api/stripe/issuing-authorization',
  event: unknown,
  secret: string,
  at = Math.floor(t.clock.now().getTime() / 1000),
) {
  const raw = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: door,
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripeSignatureHeader(secret, at, raw),
    },
  });
}

/** The treasury's configuration against a fake Stripe: test keys, one price, one currency. */
export function stripeTreasury(stripe: FakeStripe, webhookSecret: string) {
  return {
    stripeSecretKey: 'sk_test_fake',
    webhookSecret,
    apiBase: stripe.base,
    oraclePriceCents: 700,
    currency: 'usd',
  };
}

/** The treasury switched off: no key, no webhook secret, a provider address nothing answers. */
export const TREASURY_OFF = {
  stripeSecretKey: undefined,
  webhookSecret: undefined,
  apiBase: 'http://127.0.0.1:9',
};
