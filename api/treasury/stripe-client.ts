import { Refusal } from '../../shared/errors.ts';
import { projectFailure } from '../../shared/boundaries/projectors/failures.ts';
import type { TreasuryConfig } from './config.ts';
import { providerOff } from '../plugins/errors.ts';

/**
 * The smallest Stripe client the treasury needs: form-encoded POSTs to the Stripe API with the
 * secret key, only when one is configured. Any failure (network, non-2xx, unexpected body) leaves
 * through failure_projection: callers see `provider_unavailable` and the lane, never Stripe's words.
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

/** Flattens nested params the way Stripe expects: a[b][0][c]=v. */
export function formEncode(params: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (typeof value === 'object') out.push(...formEncode(value as Record<string, unknown>, name));
    else out.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return out;
}

export async function stripePost(
  config: TreasuryConfig,
  path: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!config.stripeSecretKey) throw paymentsOff();
  let response: Response;
  try {
    response = await fetch(`${config.apiBase}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.stripeSecretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: formEncode(params).join('&'),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw providerUnavailable();
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw providerUnavailable();
  }
  if (!response.ok || !body || typeof body !== 'object') throw providerUnavailable();
  return body as Record<string, unknown>;
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
  const body = await stripePost(config, '/v1/checkout/sessions', {
    mode: 'payment',
    client_reference_id: input.intentId,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    line_items: {
      0: {
        quantity: 1,
        price_data: {
          currency: input.currency,
          unit_amount: input.amountCents,
          product_data: { name: input.name },
        },
      },
    },
    metadata: { intent: input.intentId },
  });
  const id = typeof body.id === 'string' ? body.id : '';
  const url = typeof body.url === 'string' ? body.url : '';
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(id) || !/^https?:\/\//.test(url)) throw providerUnavailable();
  return { id, url };
}

export async function createPortalSession(
  config: TreasuryConfig,
  input: { customer: string; returnUrl: string },
): Promise<{ url: string }> {
  const body = await stripePost(config, '/v1/billing_portal/sessions', {
    customer: input.customer,
    return_url: input.returnUrl,
  });
  const url = typeof body.url === 'string' ? body.url : '';
  if (!/^https?:\/\//.test(url)) throw providerUnavailable();
  return { url };
}
