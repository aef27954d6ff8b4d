import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stripe webhook signature verification, per Stripe's documented scheme (the `stripe` package is
 * not a dependency): header `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`,
 * where each v1 is HMAC-SHA256(secret, "<t>.<raw body>") in lowercase hex. The timestamp must lie
 * within `toleranceSeconds` of now (replay protection); comparison is constant-time.
 */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'no_v1_signature'
  | 'timestamp_outside_tolerance'
  | 'signature_mismatch'
  | 'no_secret';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; failure: SignatureFailure };

/** Human words for each failure (ours, safe to publish). */
export const SIGNATURE_FAILURE_WORDS: Record<SignatureFailure, string> = {
  missing_header: 'The Stripe-Signature header is missing.',
  malformed_header: 'The Stripe-Signature header is not t=<seconds>,v1=<hex>.',
  no_v1_signature: 'The Stripe-Signature header carries no v1 signature.',
  timestamp_outside_tolerance: 'The signature timestamp is more than 300 seconds from now.',
  signature_mismatch: 'No v1 signature matches the payload.',
  no_secret: 'No webhook secret is configured.',
};

export function computeStripeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

/** Builds a header value as Stripe sends it (tests and fake providers use this). */
export function stripeSignatureHeader(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return `t=${timestamp},v1=${computeStripeSignature(secret, timestamp, rawBody)}`;
}

export function verifyStripeSignature(options: {
  header: string | string[] | undefined;
  rawBody: string | Buffer;
  secret: string | undefined;
  nowSeconds: number;
  toleranceSeconds?: number;
}): SignatureCheck {
  const tolerance = options.toleranceSeconds ?? STRIPE_SIGNATURE_TOLERANCE_SECONDS;
  if (!options.secret) return { ok: false, failure: 'no_secret' };
  const header = Array.isArray(options.header) ? options.header[0] : options.header;
  if (typeof header !== 'string' || header.trim() === '') return { ok: false, failure: 'missing_header' };
  if (header.length > 4096) return { ok: false, failure: 'malformed_header' };
  let timestamp: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, failure: 'malformed_header' };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined)
        return { ok: false, failure: 'malformed_header' };
      timestamp = Number(value);
    } else if (key === 'v1') {
      v1.push(value);
    }
  }
  if (timestamp === undefined) return { ok: false, failure: 'malformed_header' };
  if (v1.length === 0) return { ok: false, failure: 'no_v1_signature' };
  if (Math.abs(options.nowSeconds - timestamp) > tolerance)
    return { ok: false, failure: 'timestamp_outside_tolerance' };
  const expected = Buffer.from(computeStripeSignature(options.secret, timestamp, options.rawBody), 'hex');
  let matched = false;
  for (const candidate of v1) {
    // Every candidate is compared (no early exit on the first match) in constant time.
    if (!/^[0-9a-f]{64}$/i.test(candidate)) continue;
    const given = Buffer.from(candidate.toLowerCase(), 'hex');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? { ok: true, timestamp } : { ok: false, failure: 'signature_mismatch' };
}
