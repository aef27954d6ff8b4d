/**
 * The treasury's holders and offers: who is paying (a session, or an agent with its continuity
 * proof, as api/agents/speaker.ts resolves it), the current Oracle quote, and checkout intents
 * opened with Stripe, and its billing portal.
 */
import type { NotNull } from 'kysely';
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { oracleQuote } from '../../shared/treasury/quote.ts';
import type { Speaker } from '../agents/speaker.ts';
import { treasuryConfig } from './config.ts';
import {
  createCheckoutSession,
  createPortalSession,
  paymentsOff,
  stripeConfigured,
} from './stripe-client.ts';
import { constant } from '../db/kysely.ts';

export type Purpose = 'oracle' | 'patronage' | 'covenant' | 'fund_evolution' | 'inscription';

/** Who pays or holds: a signed-in sovereign, or an agent that proved its handle (api/agents/speaker.ts). Raw refs stay inside. */
export type Holder = Speaker;

export function requireHolder(holder: Holder | undefined): Holder {
  if (!holder)
    throw new Refusal(
      'identity_required',
      {},
      'Sign in (cross at /initiate or return at /return), or name your agent handle with its continuity proof.',
    );
  return holder;
}

export const publicRefOf = (holder: { kind: string; publicRef: string }) =>
  projectActorRef({
    actor_id: 'withheld',
    kind: holder.kind === 'agent' ? 'agent' : 'sovereign',
    tag: holder.publicRef,
    handle: holder.publicRef,
  }).ref;

export function currentQuote(ctx: AppContext) {
  const cfg = treasuryConfig(ctx.config);
  return oracleQuote(cfg.oraclePriceCents, cfg.currency);
}

/** GET /api/oracle and MCP civitas_oracle_quote: what a report covers, its quote and its doors. Never a purchase. */
export function oracleOffer(ctx: AppContext) {
  return {
    ok: true as const,
    offers: 'A deep report over the public record, computed from stored public data only.',
    covers: [
      'imprint kinds',
      'authors by kind (humans and agents apart, k-anonymous)',
      'threads',
      'receipts by step',
      'window statistics and intake of the last 7 days',
    ],
    quote: currentQuote(ctx),
    provider: { configured: Boolean(treasuryConfig(ctx.config).stripeSecretKey) },
    doors: { run: 'POST /api/oracle', buy: 'POST /api/oracle/buy', usage: 'GET /api/oracle/usage' },
  };
}

const PRODUCT_NAMES: Record<Purpose, string> = {
  oracle: 'civitas Oracle report',
  patronage: 'civitas patronage',
  covenant: 'civitas covenant',
  fund_evolution: 'civitas evolution funding',
  inscription: 'civitas inscription',
};

/**
 * Records a checkout intent and opens a Stripe Checkout Session for it. Without a configured
 * Stripe key it refuses 503 before recording anything. Never charges: the provider charges only
 * when the person completes the hosted checkout; the webhook applies the result.
 */
export async function startCheckout(
  ctx: AppContext,
  input: {
    purpose: Purpose;
    holder: Holder;
    amountCents: number;
    uses?: number;
    detail?: Record<string, unknown>;
    returnPath: string;
  },
) {
  const cfg = treasuryConfig(ctx.config);
  if (!stripeConfigured(cfg)) throw paymentsOff('checkout');
  const id = newId('tin', ctx.clock.now());
  const origin = ctx.config.origin;
  const session = await createCheckoutSession(cfg, {
    intentId: id,
    name: PRODUCT_NAMES[input.purpose],
    amountCents: input.amountCents,
    currency: cfg.currency,
    successUrl: `${origin}${input.returnPath}?checkout=${id}`,
    cancelUrl: `${origin}${input.returnPath}?checkout=cancelled`,
  });
  const now = ctx.clock.now();
  const receipt = await ctx.db.transaction(async (tx) => {
    await tx.query(
      `insert into treasury_intents (id, purpose, holder_kind, holder_ref, public_ref, amount_cents, currency, uses, detail, checkout_session_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)`,
      [
        id,
        input.purpose,
        input.holder.kind,
        input.holder.ref,
        input.holder.publicRef,
        input.amountCents,
        cfg.currency,
        input.uses ?? 0,
        JSON.stringify(input.detail ?? {}),
        session.id,
        now.toISOString(),
      ],
    );
    return recordReceipt(tx, { step: 'treasury.checkout', subject: `intent:${id}`, at: now });
  });
  return {
    ok: true as const,
    intent: id,
    purpose: input.purpose,
    amount: input.amountCents,
    currency: cfg.currency,
    checkout_url: session.url,
    charged: false as const,
    note: 'Nothing is charged until you complete the checkout yourself.',
    receipt_id: receipt.id,
  };
}

/**
 * Opens Stripe's billing portal for a sovereign's subscriptions: the customer of their newest
 * payment that carries one, sent back to `back` (a path of this origin) afterwards.
 */
export async function openBillingPortal(ctx: AppContext, sovereignId: string, back: string): Promise<string> {
  const cfg = treasuryConfig(ctx.config);
  if (!cfg.stripeSecretKey) throw paymentsOff('checkout');
  const [row] = await ctx.db.kysely
    .selectFrom('treasury_payments')
    .select('customer_id')
    .where('holder_kind', '=', constant('sovereign'))
    .where('holder_ref', '=', sovereignId)
    .where('customer_id', 'is not', null)
    .$narrowType<{ customer_id: NotNull }>() // where customer_id is not null
    .orderBy('received_at', 'desc')
    .limit(constant(1))
    .execute();
  if (!row)
    throw new Refusal('not_found', {}, 'No billing record is held for you yet: complete a checkout first.');
  const portal = await createPortalSession(cfg, {
    customer: row.customer_id,
    returnUrl: `${ctx.config.origin}${back}`,
    operationId: newId('portal', ctx.clock.now()),
  });
  return portal.url;
}
