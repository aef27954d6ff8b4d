import { describe, expect, it } from 'vitest';
import {
  computeStripeSignature,
  stripeSignatureHeader,
  verifyStripeSignature,
} from '../../../shared/treasury/stripe-signature.ts';

const secret = 'whsec_test_secret';
const body = '{"id":"evt_1","type":"ping","data":{"object":{}}}';
const now = 1_800_000_000;

describe('Stripe signature verification', () => {
  it('accepts a correct v1 signature within the tolerance', () => {
    expect(
      verifyStripeSignature({
        header: stripeSignatureHeader(secret, now, body),
        rawBody: body,
        secret,
        nowSeconds: now + 299,
      }),
    ).toEqual({ ok: true, timestamp: now });
  });
  it('matches the documented scheme: HMAC-SHA256 of "<t>.<body>" in hex', async () => {
    const { createHmac } = await import('node:crypto');
    expect(computeStripeSignature(secret, now, body)).toBe(
      createHmac('sha256', secret).update(`${now}.${body}`).digest('hex'),
    );
  });
  it('accepts when any of several v1 signatures matches (secret rotation) and ignores v0', () => {
    const header = `t=${now},v0=abc,v1=${'0'.repeat(64)},v1=${computeStripeSignature(secret, now, body)}`;
    expect(verifyStripeSignature({ header, rawBody: body, secret, nowSeconds: now }).ok).toBe(true);
  });
  it('refuses a timestamp outside 300 seconds, either way', () => {
    const header = stripeSignatureHeader(secret, now, body);
    expect(verifyStripeSignature({ header, rawBody: body, secret, nowSeconds: now + 301 })).toEqual({
      ok: false,
      failure: 'timestamp_outside_tolerance',
    });
    expect(verifyStripeSignature({ header, rawBody: body, secret, nowSeconds: now - 301 })).toEqual({
      ok: false,
      failure: 'timestamp_outside_tolerance',
    });
  });
  it('refuses a changed body, a wrong secret, missing and malformed headers', () => {
    const header = stripeSignatureHeader(secret, now, body);
    expect(verifyStripeSignature({ header, rawBody: body + ' ', secret, nowSeconds: now }).ok).toBe(false);
    expect(verifyStripeSignature({ header, rawBody: body, secret: 'whsec_other', nowSeconds: now }).ok).toBe(
      false,
    );
    expect(verifyStripeSignature({ header: undefined, rawBody: body, secret, nowSeconds: now })).toEqual({
      ok: false,
      failure: 'missing_header',
    });
    expect(verifyStripeSignature({ header: 'garbage', rawBody: body, secret, nowSeconds: now })).toEqual({
      ok: false,
      failure: 'malformed_header',
    });
    expect(verifyStripeSignature({ header: `t=${now}`, rawBody: body, secret, nowSeconds: now })).toEqual({
      ok: false,
      failure: 'no_v1_signature',
    });
    expect(
      verifyStripeSignature({ header: `t=x,v1=${'a'.repeat(64)}`, rawBody: body, secret, nowSeconds: now }),
    ).toEqual({ ok: false, failure: 'malformed_header' });
    expect(
      verifyStripeSignature({ header: `t=${now},v1=zz`, rawBody: body, secret, nowSeconds: now }),
    ).toEqual({ ok: false, failure: 'signature_mismatch' });
    expect(verifyStripeSignature({ header, rawBody: body, secret: undefined, nowSeconds: now })).toEqual({
      ok: false,
      failure: 'no_secret',
    });
  });
});
