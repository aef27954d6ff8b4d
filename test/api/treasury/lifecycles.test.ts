import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushVitals } from '../../../api/plugins/vitals.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import {
  fakeStripe,
  signedByStripe,
  type FakeStripe,
  stripeTreasury,
  TREASURY_OFF,
} from '../../helpers/stripe.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * Payments that settle later, providers that fail and providers switched off (issues 12 and 13):
 * an unpaid checkout waits without consuming the purchase, a later asynchronous success applies it,
 * an asynchronous failure records it; a provider outage is the provider's failure in its lane; a
 * provider this deployment switched off is configuration, not a server failure.
 */
const WEBHOOK_SECRET = 'whsec_lifecycles';
let t: TestApp;
let off: TestApp;
let alice: TestSovereign;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await fakeStripe();
  t = await createTestApp({
    config: {
      treasury: stripeTreasury(stripe, WEBHOOK_SECRET),
    },
  });
  off = await createTestApp({
    config: {
      treasury: TREASURY_OFF,
    },
  });
  alice = await signedInSovereign(t.app);
});
afterAll(async () => {
  await t?.close();
  await off?.close();
  await stripe?.close();
});

const get = (app: TestApp, url: string, who?: TestSovereign) => requests(() => app.app).get(url, who);
const post = (app: TestApp, url: string, payload: unknown, who?: TestSovereign) =>
  requests(() => app.app).post(url, payload, who, { origin: TEST_ORIGIN });
const hook = (id: string, type: string, object: Record<string, unknown>) =>
  signedByStripe(
    t,
    '/api/stripe/webhook',
    { id, type, data: { object: { currency: 'usd', ...object } } },
    WEBHOOK_SECRET,
  );
const sessionStatus = async (intent: string) =>
  (await get(t, `/api/oracle/session?id=${intent}`, alice)).json().sessions[0].status;
const usesLeft = async () => (await get(t, '/api/oracle/usage', alice)).json().uses_left;

describe('Stripe: payments that settle later', () => {
  it('an unpaid completed session waits; a redelivery is looked at again; the async success applies once', async () => {
    const buy = (await post(t, '/api/oracle/buy', { uses: 2 }, alice)).json();
    expect(buy.intent).toBeDefined();
    const metadata = { intent: buy.intent };
    const waiting = await hook('evt_async_done', 'checkout.session.completed', {
      payment_status: 'unpaid',
      amount_total: 1400,
      metadata,
    });
    expect(waiting.json()).toMatchObject({ outcome: 'awaiting_payment', duplicate: false });
    expect(await sessionStatus(buy.intent)).toBe('awaiting_payment');
    expect(await usesLeft()).toBe(0);
    // The same event delivered again is not "already applied": it was never applied.
    expect(
      (
        await hook('evt_async_done', 'checkout.session.completed', {
          payment_status: 'unpaid',
          amount_total: 1400,
          metadata,
        })
      ).json(),
    ).toMatchObject({ duplicate: false, outcome: 'awaiting_payment' });

    const paid = await hook('evt_async_ok', 'checkout.session.async_payment_succeeded', {
      payment_status: 'paid',
      amount_total: 1400,
      metadata,
    });
    expect(paid.json()).toMatchObject({ outcome: 'applied_oracle', duplicate: false });
    expect(await sessionStatus(buy.intent)).toBe('paid');
    expect(await usesLeft()).toBe(2);
    expect(
      (
        await hook('evt_async_ok', 'checkout.session.async_payment_succeeded', {
          payment_status: 'paid',
          amount_total: 1400,
          metadata,
        })
      ).json(),
    ).toMatchObject({ duplicate: true });
    expect(await usesLeft()).toBe(2);
  });

  it('an async failure records payment_failed and grants nothing', async () => {
    const buy = (await post(t, '/api/oracle/buy', { uses: 1 }, alice)).json();
    const metadata = { intent: buy.intent };
    await hook('evt_fail_done', 'checkout.session.completed', {
      payment_status: 'unpaid',
      amount_total: 700,
      metadata,
    });
    const failed = await hook('evt_fail', 'checkout.session.async_payment_failed', {
      payment_status: 'unpaid',
      amount_total: 700,
      metadata,
    });
    expect(failed.json()).toMatchObject({ outcome: 'payment_failed' });
    expect(await sessionStatus(buy.intent)).toBe('payment_failed');
    expect(await usesLeft()).toBe(2);
    const [payments = missing()] = await t.database.db.query<{ n: string }>(
      'select count(*) as n from treasury_payments where intent_id = $1',
      [buy.intent],
    );
    expect(Number(payments.n)).toBe(0);
  });
});

describe('provider failures and providers switched off', () => {
  it("a provider outage is the provider's failure in the checkout lane, not internal_error", async () => {
    stripe.fail(500, { message: 'PROVIDER-INTERNAL-WORDS' }, Infinity);
    try {
      const res = await post(t, '/api/oracle/buy', { uses: 1 }, alice);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ reason: 'provider_unavailable', lane: 'checkout' });
      expect(res.body).not.toContain('PROVIDER-INTERNAL-WORDS');
    } finally {
      stripe.recover();
    }
    const failures = (await get(t, '/api/failures')).json();
    expect(failures.by_lane).toEqual([
      {
        lane: 'checkout',
        reason: 'provider_unavailable',
        hint: expect.any(String),
        count: 1,
        last_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify([failures.by_lane, failures.by_day])).not.toContain('internal_error');
    // One incident, one classification: /api/recovery reads the same stored kind.
    const recovery = (await get(t, '/api/recovery')).json();
    expect(recovery.recent).toEqual([
      expect.objectContaining({ lane: 'checkout', reason: 'provider_unavailable' }),
    ]);
    expect(recovery.by_lane).toEqual([
      expect.objectContaining({ lane: 'checkout', reason: 'provider_unavailable' }),
    ]);
  });

  it('a provider switched off answers 503 but is no server failure: /api/failures, /api/vitals and /promises stay clean', async () => {
    const bob = await signedInSovereign(off.app);
    const clicks = [
      await post(off, '/api/oracle/buy', { uses: 1 }, bob),
      await post(off, '/api/patronage', { amount: 500 }, bob),
      await post(off, '/sovereign/email', { email: 'bob@example.org' }, bob),
      await post(off, '/auth/idp/login', {}),
    ];
    for (const res of clicks) expect(res.statusCode, res.body).toBe(503);
    await flushVitals(off.app.civitas);
    const failures = (await get(off, '/api/failures')).json();
    expect(failures.total).toBe(0);
    expect((await get(off, '/api/vitals')).json().last_hour.server_errors).toBe(0);
    const availability = (await get(off, '/api/promises'))
      .json()
      .promises.find((p: { name: string }) => p.name === 'availability');
    expect(availability.kept).toBe(true);
  });
});
