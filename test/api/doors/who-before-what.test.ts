/**
 * A door that needs a signed-in sovereign answers who may act (401 identity_required) before what
 * was sent: an anonymous request with a malformed body gets 401, never the router's 400, so a
 * client learns first that it must sign in. Listed by hand from the contracted POST doors that
 * need a session (scoped ones are refused by the session plugin, the rest by their preHandler).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';

const SESSION_DOORS = [
  '/api/checkout',
  '/api/constitution/cosign',
  '/api/constitution/propose',
  '/api/constitution/ratify',
  '/api/codex/pledges/review',
  '/api/experiments/prevention',
  '/api/mind/stance',
  '/api/oracle/buy',
  '/api/patronage',
  '/api/portal',
  '/api/quick-imprint',
  '/settings/data/request',
  '/sovereign/callsign-visibility',
  '/sovereign/court-sign',
  '/sovereign/email',
  '/sovereign/imprint',
  '/sovereign/order',
  '/sovereign/pact',
  '/sovereign/pact/stake',
  '/sovereign/pledge',
  '/sovereign/pledge/back',
  '/sovereign/prophecy',
  '/sovereign/second',
  '/sovereign/triage',
  '/standing/rotate-relay',
  '/steward/lesson',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('who before what', () => {
  it.each(SESSION_DOORS)('POST %s without a session and with a malformed body answers 401', async (url) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      payload: { not_a_field: ['x'] },
      headers: { origin: TEST_ORIGIN },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().reason).toBe('identity_required');
  });
});
