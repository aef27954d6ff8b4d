/**
 * Treasury operations: checkouts, and the public answers: the Oracle's offer, the cost quote, the
 * treasury and its strategies, equity, patrons and inscriptions (shared/contract.ts); a holder's
 * own reads and the provider's callbacks are in ./holder-contract.ts. Answers are the projections
 * of api/treasury/views.ts and the quote of ./quote.ts, field for field.
 */
import { z } from 'zod';
import { defineContracts, isoTime } from '../contract.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';
import { handleSchema } from '../handle.ts';
import { CAPABILITY_PRICES, oracleQuoteSchema } from './quote.ts';
import { isPublicActor } from '../actor.ts';
import { PURPOSES } from './purposes.ts';
import { TREASURY_HOLDER_CONTRACTS } from './holder-contract.ts';

export { oracleQuoteSchema };

const ok = z.literal(true);
const count = z.number().int().min(0);
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
const cents = z.number().int().describe('minor units (cents)');

export { PURPOSES };

/** A form leaves a field as '' when blank: absent. */
const blank = (value: unknown) => (value === '' ? undefined : value);
/** Who pays: an agent (with its continuity secret) or the signed-in sovereign; where a form returns. */
export const holderFields = {
  agent: z.preprocess(blank, handleSchema.optional()),
  continuity: z.preprocess(blank, z.string().max(200).optional()),
  return_to: z.preprocess(blank, z.string().max(2048).optional()),
};
const amountField = (minimum: number) =>
  z.preprocess(
    blank,
    z.coerce
      .number()
      .int('amount is a whole number of cents')
      .min(minimum, `amount is at least ${minimum} cents`)
      .max(CAPABILITY_PRICES.maximum, `amount is at most ${CAPABILITY_PRICES.maximum} cents`)
      .optional(),
  );
const listedField = z
  .preprocess(
    (v) =>
      v === 'on' || v === 'true' || v === true
        ? true
        : v === undefined || v === '' || v === 'false'
          ? false
          : v,
    z.boolean(),
  )
  .optional();

/**
 * The body of every checkout door; the door checks what its purpose needs (text, name). Strict: a
 * field it does not know is refused (400 naming it), never ignored, since an ignored amount or
 * option would open a checkout for something other than what was asked (docs/treasury.md).
 */
const checkoutBody = z.strictObject({
  capability: z.preprocess(blank, z.enum(PURPOSES).optional()),
  amount: amountField(CAPABILITY_PRICES.patronage_minimum),
  // The page's human amount ("5" or "12.50" in the currency's main unit); `amount` in cents wins.
  amount_major: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(/^\d{1,6}([.,]\d{1,2})?$/, 'Write an amount such as 5 or 12.50.')
      .optional(),
  ),
  uses: z.preprocess(blank, z.coerce.number().int().min(1).max(20).optional()),
  listed: listedField,
  name: z.preprocess(blank, z.string().trim().min(1).max(120).optional()),
  text: z.preprocess(
    blank,
    z.string().trim().min(1, 'text is required').max(280, 'text is at most 280 characters').optional(),
  ),
  ...holderFields,
});
/** A checkout opened at the provider: nothing is charged until the person completes it. */
const checkoutResult = z.object({
  ok,
  intent: z.string(),
  purpose: z.enum(PURPOSES),
  amount: z.number().int(),
  currency: z.string(),
  checkout_url: z.string(),
  charged: z.literal(false),
  note: z.string(),
  receipt_id: z.string(),
});
const checkout = { body: checkoutBody, form: true, response: checkoutResult } as const;

/** Who a cost quote is for: an agent by handle or a sovereign by public tag. */
const actorWords = 'actor is required: agent:<handle> or sovereign:<4-hex tag>.';

const provider = z.object({ configured: z.boolean() });

export const strategySchema = z.object({
  name: z.string(),
  category: z.string(),
  description: z.string(),
  currency: z.string(),
  per_authorization_limit: cents,
  daily_limit: cents,
  approved_today: cents,
});

/** equity_projection: shares and concentration, never a holder. */
export const equitySchema = z.object({
  as_of: isoTime,
  total_units: count,
  holders: kCount,
  top_holder_share: z.number().nullable().describe('null under 5 holders (it would reveal how many)'),
  gini: z.number().nullable().describe('null under 5 holders (it would reveal how many)'),
});

export const TREASURY_CONTRACTS = defineContracts({
  ...TREASURY_HOLDER_CONTRACTS,
  'POST /api/portal': {
    body: z.object({ return_to: holderFields.return_to }).passthrough(),
    form: true,
    response: z.object({ ok, portal_url: z.string() }),
  },
  'POST /api/checkout': checkout,
  'POST /api/oracle/buy': checkout,
  'POST /api/patronage': checkout,
  'POST /api/covenant': checkout,
  'POST /api/fund-evolution': checkout,
  'POST /api/inscribe': checkout,
  'GET /api/oracle': {
    response: z.object({
      ok,
      offers: z.string(),
      covers: z.array(z.string()),
      quote: oracleQuoteSchema,
      provider,
      doors: z.object({ run: z.string(), buy: z.string(), usage: z.string() }),
    }),
  },
  'GET /api/cost-oracle': {
    query: z.object({ actor: z.string({ error: actorWords }).refine(isPublicActor, actorWords) }),
    response: z.object({ ok, actor: z.string(), quote: oracleQuoteSchema, note: z.string() }),
  },
  'GET /api/treasury': {
    response: z.object({
      ok,
      as_of: isoTime,
      units: z.string(),
      balance: z.array(z.object({ currency: z.string(), income: cents, spending: cents, balance: cents })),
      income_by_purpose: z.array(
        z.object({ purpose: z.string(), currency: z.string(), amount: cents, payments: count }),
      ),
      spending_by_category: z.array(
        z.object({ category: z.string(), currency: z.string(), amount: cents, authorizations: count }),
      ),
      strategies: z.array(strategySchema),
      provider,
    }),
  },
  'GET /api/treasury/strategies': { response: z.object({ ok, strategies: z.array(strategySchema) }) },
  'GET /api/equity': { response: equitySchema.extend({ ok }) },
  'GET /api/patrons': {
    response: z.object({
      ok,
      counts: z.object({ humans: kCount, agents: kCount }),
      listed: z.array(
        z.object({
          actor: z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() }),
          since: isoTime,
        }),
      ),
    }),
  },
  'GET /api/inscriptions': {
    response: z.object({
      ok,
      note: z.string(),
      inscriptions: z.array(
        z.object({ id: z.string(), text: z.string(), author: z.string(), inscribed_at: isoTime }),
      ),
    }),
  },
});
