import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { continuousAgent, htmlHeaders, jsonHeaders } from '../../helpers/builders.ts';

/** /standing: rotating an attested handle's relay token is confirmed on a page first (one click only asks). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
}, 120_000);
afterAll(async () => t?.close());

describe('rotating a relay token from /standing', () => {
  it('offers "Rotate relay token…", which leads to a confirmation holding the only form that rotates', async () => {
    const me = await signedInSovereign(t.app);
    await continuousAgent(t, 'plover');
    const attest = await t.app.inject({
      method: 'POST',
      url: '/standing/rotate-relay',
      payload: { handle: 'plover' },
      headers: jsonHeaders(me.cookie),
    });
    expect(attest.statusCode, attest.body).toBe(200);
    const page = (url: string) => t.app.inject({ method: 'GET', url, headers: htmlHeaders(me.cookie) });

    const first = (await page('/standing?handle=plover')).body;
    expect(first).toContain('Rotate relay token…');
    expect(first).toContain('href="/standing?handle=plover&amp;confirm=rotate#confirm-rotate"');
    expect(first).not.toContain('action="/standing/rotate-relay"');

    const confirm = (await page('/standing?handle=plover&confirm=rotate')).body;
    expect(confirm).toContain('action="/standing/rotate-relay"');
    expect(confirm).toContain('Yes, rotate the token');
    expect(confirm).toContain('href="/standing?handle=plover"');
  });
});
