import Stripe from 'stripe';
import { Refusal } from '../../shared/errors.ts';
import { projectFailure } from '../../shared/boundaries/projectors/failures.ts';
import type { TreasuryConfig } from './config.ts';
import { providerOff } from '../plugins/errors.ts';

/**
 * Outgoing Stripe calls through the official SDK (`stripe`), only when a key is configured: a pinned
 * API version, an idempotency key per create call, retries on network failures and Stripe's
 * 409/5xx. Any failure (network, non-2xx, unexpected body) leaves through failure_projection:
 * callers see `provider_unavailable` and the lane, never Stripe's words. Incoming webhooks are
 * verified by shared/treasury/stripe-signature.ts, not here.
 */
export function stripeConfigured(config: TreasuryConfig): boolean {
  return Boolean(config.stripeSecretKey);
}

/** Refusal in projected words only (failure_projection, lane checkout). */
export function providerUnavailable(lane: 'checkout' | 'treasury' = 'checkout'): Refusal {
  const view = projectFailure({ lane, external: true, provider: 'stripe', message: 'unavailable' });
  return new Refusal(view.reason as 'provider_unavailable', { lane: view.lane });
}

/** Payments switched off here (no key or no webhook secret): a 503 by configuration, not a failure. */
export function paymentsOff(lane: 'checkout' | 'treasury' = 'checkout'): Refusal {
  return providerOff(providerUnavailable(lane));
}

/**
 * The Stripe API version every call names (`Stripe-Version`): pinned here, moved only on purpose
 * (with the SDK it was tested against), so an account's default version moving never changes what
 * checkout sends or receives.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

/** Network failures and Stripe's 409/5xx answers are retried this many times, with the same key. */
const STRIPE_RETRIES = 2;

/**
 * The official SDK, pointed at `CIVITAS_STRIPE_API_BASE` (https://api.stripe.com, or a fake on
 * loopback in tests): its host, port and protocol.
 */
export function stripeSdk(config: TreasuryConfig): Stripe {
  if (!config.stripeSecretKey) throw paymentsOff();
  const base = new URL(config.apiBase);
  return new Stripe(config.stripeSecretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: base.hostname,
    port: base.port || (base.protocol === 'http:' ? 80 : 443),
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: STRIPE_RETRIES,
    timeout: 10_000,
    // No timing of earlier requests rides along with the next one.
    telemetry: false,
    appInfo: { name: 'civitas' },
  });
}

/**
 * Runs one create call. Its Idempotency-Key comes from the operation's own id (a checkout intent's
 * `tin_…`), so the SDK's retries of it, and any replay of the same operation, are one object at
 * Stripe. Any failure leaves as `provider_unavailable` (Stripe's words never reach a caller).
 */
async function create<T>(run: (options: Stripe.RequestOptions) => Promise<T>, key: string): Promise<T> {
  try {
    return await run({ idempotencyKey: key });
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw providerUnavailable();
  }
}

/** Creates a Checkout Session; answers its id and hosted URL (https only). */
export async function createCheckoutSession(
  config: TreasuryConfig,
  input: {
    intentId: string;
    name: string;
    amountCents: number;
    currency: string;
    successUrl: string;
    cancelUrl: string;
  },
): Promise<{ id: string; url: string }> {
  const stripe = stripeSdk(config);
  const body = await create(
    (options) =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: input.intentId,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: input.amountCents,
                product_data: { name: input.name },
              },
            },
          ],
          metadata: { intent: input.intentId },
        },
        options,
      ),
    `checkout-${input.intentId}`,
  );
  const id = typeof body.id === 'string' ? body.id : '';
  const url = typeof body.url === 'string' ? body.url : '';
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(id) || !/^https?:\/\//.test(url)) throw providerUnavailable();
  return { id, url };
}

export async function createPortalSession(
  config: TreasuryConfig,
  /** operationId: this portal visit's own id (minted per request), the key of its create call. */
  input: { customer: string; returnUrl: string; operationId: string },
): Promise<{ url: string }> {
  const stripe = stripeSdk(config);
  const body = await create(
    (options) =>
      stripe.billingPortal.sessions.create(
        { customer: input.customer, return_url: input.returnUrl },
        options,
      ),
    `portal-${input.operationId}`,
  );
  const url = typeof body.url === 'string' ? body.url : '';
  if (!/^https?:\/\//.test(url)) throw providerUnavailable();
  return { url };
}
