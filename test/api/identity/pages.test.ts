import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';

/** The identity pages rendered by the one-origin server (site built by `npm run build`). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

const html = { accept: 'text/html,application/xhtml+xml' };

describe('identity pages', () => {
  it('crossing by form renders the key once on the page, with a session cookie, privately', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/initiate', headers: html });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form class="form" method="post" action="/initiate"');
    expect(page.body).toMatch(/<label for="cross-callsign">/);

    const res = await t.app.inject({
      method: 'POST',
      url: '/initiate',
      headers: { ...html, origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'callsign=Pat',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const key = /data-testid="sovereign-key"[^>]*>(sk_[A-Za-z0-9_-]{43})</.exec(res.body)?.[1];
    expect(key).toBeTruthy();
    const cookie = res.cookies.find((c) => c.name === 'civitas_session')!;
    expect(cookie.value).toBeTruthy();
    // The key works at /return, and is not on the owner page.
    const back = await t.app.inject({
      method: 'POST',
      url: '/return',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `key=${key}`,
    });
    expect(back.statusCode).toBe(303);
    const owner = await t.app.inject({
      method: 'GET',
      url: '/sovereign',
      headers: {
        ...html,
        cookie: `civitas_session=${back.cookies.find((c) => c.name === 'civitas_session')!.value}`,
      },
    });
    expect(owner.statusCode).toBe(200);
    expect(owner.headers['cache-control']).toBe('private, no-store');
    expect(owner.body).toContain('data-testid="owner-tag"');
    expect(owner.body).not.toContain(key!);
  });

  it('renders every identity page for a signed-in person', async () => {
    const me = await signedInSovereign(t.app, { callsign: 'Viewer' });
    const pages = [
      '/return',
      '/reconcile',
      '/begin',
      `/begin/receipt/${me.receiptId}`,
      '/identity',
      '/sovereign',
      `/passport?tag=${me.tag}`,
      '/passport',
      '/settings/data',
    ];
    for (const url of pages) {
      const res = await t.app.inject({ method: 'GET', url, headers: { ...html, cookie: me.cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<main id="main"');
      expect(res.body, url).toMatch(/<h1[^>]*>/);
      expect(res.body, url).not.toContain(me.id);
    }
    const card = await t.app.inject({ method: 'GET', url: `/passport/card.svg?tag=${me.tag}` });
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toBe('image/svg+xml');
    const receiptCard = await t.app.inject({ method: 'GET', url: `/begin/receipt/${me.receiptId}/card.svg` });
    expect(receiptCard.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/begin/receipt/rcpt_nope/card.svg' })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: '/passport/card.svg?tag=zz' })).statusCode).toBe(400);
  });

  it('shows the steward queue to stewards only', async () => {
    const me = await signedInSovereign(t.app);
    const denied = await t.app.inject({
      method: 'GET',
      url: '/steward/data-requests',
      headers: { ...html, cookie: me.cookie },
    });
    expect(denied.statusCode).toBe(403);
  });

  it('sends a signed-out browser from an owner page to /return and back', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sovereign', headers: html });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/return?return_to=%2Fsovereign');
    const page = await t.app.inject({
      method: 'GET',
      url: '/return?return_to=%2Fsovereign&idp=unconfigured',
      headers: html,
    });
    expect(page.body).toContain('not configured here');
    expect(page.body).toContain('name="return_to" value="/sovereign"');
  });

  it('names a message only for the reasons it knows, never an inherited member of the query key', async () => {
    const known = await t.app.inject({ method: 'GET', url: '/return?failed=failed', headers: html });
    expect(known.body).toContain('did not sign you in');
    for (const query of [
      'failed=constructor',
      'failed=__proto__',
      'failed=toString',
      'idp=hasOwnProperty',
      'idp=valueOf',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/return?${query}`, headers: html });
      expect(res.statusCode, query).toBe(200);
      expect(res.body, query).not.toContain('role="alert"');
      expect(res.body, query).not.toMatch(/native code|\[object Object\]|function /);
    }
  });
});
