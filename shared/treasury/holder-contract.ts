/**
 * The treasury operations of one holder (the Oracle run, its uses and reports, checkout sessions,
 * entitlements) and the payment provider's signed callbacks (shared/contract.ts). Answers are
 * api/treasury/{oracle,views,webhooks,authorizations}.ts, field for field.
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';
import { handleSchema } from '../handle.ts';
import { PURPOSES } from './purposes.ts';

export const ok = z.literal(true);
export const count = z.number().int().min(0);
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
export const cents = z.number().int().describe('minor units (cents)');

/** A form leaves a field as '' when blank: absent (as ./contract.ts holderFields). */
export const blank = (value: unknown) => (value === '' ? undefined : value);
/** Who asks: an agent (with its continuity secret) or, without `agent`, the signed-in sovereign. */
export const agentField = z.preprocess(blank, handleSchema.optional());
export const continuityField = z.preprocess(blank, z.string().max(200).optional());

/** The deep report (api/treasury/oracle.ts oracleReport): aggregates of the public record only. */
const authorsOfKind = z.object({ authors: kCount, imprints: count });
export const oracleReportSchema = z.object({
  generated_at: isoTime,
  source: z.string(),
  kinds: z.record(z.string(), count).describe('public imprints by kind'),
  authors_by_kind: z.object({ agents: authorsOfKind, humans: authorsOfKind }),
  threads: z.object({ threads: count, replies: count, largest: count }),
  receipts_by_step: z.record(z.string(), count),
  window: z.object({
    retained: count,
    lifetime: count,
    oldest_retained_sequence: z.number().int().nullable(),
    newest_sequence: z.number().int().nullable(),
    intake_last_7_days: z.array(z.object({ day: z.string().describe('YYYY-MM-DD'), imprints: count })),
  }),
});

/** Where a checkout intent stands (treasury_intents.status). */
export const INTENT_STATUSES = ['open', 'awaiting_payment', 'payment_failed', 'paid'] as const;

/** What applying one provider event did (treasury_processed_events.outcome). */
export const WEBHOOK_OUTCOMES = [
  'already_applied',
  'ignored',
  'awaiting_payment',
  'payment_failed',
  'intent_already_paid',
  'no_holder',
  ...PURPOSES.map((purpose) => `applied_${purpose}` as const),
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** Why an Issuing authorization was approved or declined (treasury_authorizations.reason). */
export const AUTHORIZATION_REASONS = [
  'within_limits',
  'unknown_strategy',
  'invalid_amount',
  'currency_mismatch',
  'over_per_authorization_limit',
  'over_daily_limit',
] as const;
export type AuthorizationReason = (typeof AUTHORIZATION_REASONS)[number];

/**
 * A Stripe event as the handler reads it: id, type and data.object (api/treasury/webhooks.ts
 * asStripeEvent). The bytes are verified against the Stripe-Signature header before anything is
 * applied, so the router never parses this body itself (`validate: false`).
 */
export const stripeEvent = (object: z.ZodObject, type: string) =>
  z.object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,255}$/)
      .describe('the event id: an event is applied at most once'),
    type: z.string().max(200).describe(type),
    data: z.object({ object }),
  });
const loose = <S extends z.ZodRawShape>(shape: S) => z.object(shape).catchall(z.unknown());
export const checkoutSession = loose({
  metadata: loose({
    intent: z.string().max(40).optional().describe('the checkout intent (tin_…) the service opened'),
    purpose: z.enum(PURPOSES).optional(),
    uses: z.string().optional(),
    agent: z.string().optional(),
    sovereign: z.string().optional(),
    text: z.string().optional(),
    listed: z.string().optional(),
  }).optional(),
  client_reference_id: z
    .string()
    .max(40)
    .nullable()
    .optional()
    .describe('the intent, when metadata.intent is absent'),
  payment_status: z
    .string()
    .optional()
    .describe('anything but paid on checkout.session.completed: the payment settles later'),
  amount_total: z.number().int().nullable().optional(),
  currency: z.string().max(10).nullable().optional(),
  customer: z.string().max(255).nullable().optional(),
});
export const issuingAuthorization = loose({
  id: z.string().max(255).describe('the authorization id: a replay answers its recorded decision'),
  amount: z.number().int().optional(),
  currency: z.string().max(10).optional(),
  pending_request: loose({ amount: z.number().int().optional(), currency: z.string().max(10).optional() })
    .nullable()
    .optional()
    .describe('what is asked now; else amount and currency above'),
  card: loose({
    metadata: loose({
      strategy: z.string().max(100).optional().describe('the treasury strategy; default operations'),
    }).optional(),
  }).optional(),
});
export const signedCallback = { validate: false } as const;
