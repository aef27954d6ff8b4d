/**
 * Treasury operations: checkouts, and the public answers: the Oracle's offer, the cost quote, the
 * treasury and its strategies, equity, patrons and inscriptions (shared/contract.ts); a holder's
 * own reads and the provider's callbacks are in ./holder-contract.ts. Answers are the projections
 * of api/treasury/views.ts and the quote of ./quote.ts, field for field.
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';
import { listPageLinks } from '../paging.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';
import { handleSchema } from '../handle.ts';
import { CAPABILITY_PRICES, oracleQuoteSchema } from './quote.ts';
import { PURPOSES } from './purposes.ts';

export { oracleQuoteSchema };

export const ok = z.literal(true);
export const count = z.number().int().min(0);
export const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
export const cents = z.number().int().describe('minor units (cents)');

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
export const checkout = { body: checkoutBody, form: true, response: checkoutResult } as const;

/** Who a cost quote is for: an agent by handle or a sovereign by public tag. */
export const actorWords = 'actor is required: agent:<handle> or sovereign:<4-hex tag>.';

export const provider = z.object({ configured: z.boolean() });

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

/** GET /api/inscriptions: one page of paid, permanent entries, oldest first. */
export const inscriptionsSchema = z.object({
  ok,
  note: z.string(),
  inscriptions: z
    .array(z.object({ id: z.string(), text: z.string(), author: z.string(), inscribed_at: isoTime }))
    .describe('one page, oldest first'),
  ...listPageLinks,
});
