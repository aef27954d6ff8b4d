import type { CivitasConfig } from '../config.ts';

/**
 * Treasury configuration (README "Configuration", docs/treasury.md). Read from the environment
 * unless a test passes `config.treasury` to buildApp.
 * - CIVITAS_STRIPE_SECRET_KEY: outgoing Stripe API calls (checkout, portal); unset → 503 provider_unavailable.
 * - CIVITAS_STRIPE_WEBHOOK_SECRET: verifies /api/stripe/webhook and /api/stripe/issuing-authorization; unset → 503.
 * - CIVITAS_STRIPE_API_BASE: Stripe API origin (default https://api.stripe.com; tests point it at a loopback fake).
 * - CIVITAS_ORACLE_PRICE_CENTS (default 500), CIVITAS_TREASURY_CURRENCY (default usd).
 */
export interface TreasuryConfig {
  stripeSecretKey?: string;
  webhookSecret?: string;
  apiBase: string;
  oraclePriceCents: number;
  currency: string;
}

declare module '../config.ts' {
  interface CivitasConfig {
    /** Treasury settings; absent → read from the environment (api/treasury/config.ts). */
    treasury?: Partial<TreasuryConfig>;
  }
}

const positiveInt = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

export function treasuryConfig(config: CivitasConfig, env: NodeJS.ProcessEnv = process.env): TreasuryConfig {
  const given = config.treasury ?? {};
  const fromEnv: TreasuryConfig = {
    stripeSecretKey: env.CIVITAS_STRIPE_SECRET_KEY || undefined,
    webhookSecret: env.CIVITAS_STRIPE_WEBHOOK_SECRET || undefined,
    apiBase: (env.CIVITAS_STRIPE_API_BASE || 'https://api.stripe.com').replace(/\/$/, ''),
    oraclePriceCents: positiveInt(env.CIVITAS_ORACLE_PRICE_CENTS, 500),
    currency: (env.CIVITAS_TREASURY_CURRENCY || 'usd').toLowerCase(),
  };
  return {
    ...fromEnv,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  } as TreasuryConfig;
}
