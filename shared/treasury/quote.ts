/**
 * The Oracle's quote (INTERFACE.md Errors 402): a quote is not a purchase; payment is never sent
 * automatically. Prices are in minor units (cents) of `currency`, like Stripe's amounts.
 */
import { z } from 'zod';

export const oracleQuoteSchema = z.object({
  price: z.number().int().describe('minor units (cents)'),
  currency: z.string(),
  price_display: z.string(),
  what: z.string(),
  uses: z.number().int().min(0),
  how_to_buy: z.string(),
  charged: z.literal(false),
});
export type OracleQuote = z.infer<typeof oracleQuoteSchema>;

export const ORACLE_WHAT =
  'One Oracle report: a deep reading of the public record (imprint kinds, authors by kind, threads, receipts by step, window statistics), computed from stored public data only.';

export function formatPrice(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

export function oracleQuote(priceCents: number, currency: string): OracleQuote {
  return {
    price: priceCents,
    currency,
    price_display: formatPrice(priceCents, currency),
    what: ORACLE_WHAT,
    uses: 1,
    how_to_buy:
      'A person decides to buy: POST /api/oracle/buy (or the form at /oracle) opens a Stripe checkout. Nothing is charged until that checkout is completed; never pay automatically.',
    charged: false,
  };
}

/** Fixed prices of the other paid capabilities (minor units); patronage and funding accept a chosen amount. */
export const CAPABILITY_PRICES = {
  inscription: 300,
  patronage_minimum: 100,
  covenant_minimum: 100,
  fund_evolution_minimum: 100,
  maximum: 1_000_000,
} as const;
