/**
 * Live pages a CDN can carry: anonymous `/` and `/imprint` get shared-cache headers, an ETag and
 * 304s; a signed-in or cookie-carrying visitor never gets a shareable answer; and anonymous
 * requests that arrive together share one render without any of them seeing a page older than
 * its request. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  const arrived = await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent: 'page-agent', body: 'A first imprint for the pages.' } });
  expect(arrived.statusCode).toBe(200);
});
afterAll(async () => t?.close());

describe('anonymous live pages', () => {
  for (const url of ['/', '/imprint']) {
    it(`${url}: public with s-maxage and stale-while-revalidate, Vary: Cookie, ETag and 304`, async () => {
      const first = await t.app.inject({ method: 'GET', url });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toContain('text/html');
      const cacheControl = String(first.headers['cache-control']);
      expect(cacheControl).toMatch(/^public/);
      expect(cacheControl).toMatch(/s-maxage=\d+/);
      expect(cacheControl).toMatch(/stale-while-revalidate=\d+/);
      expect(String(first.headers.vary)).toMatch(/cookie/i);
      expect(first.headers['set-cookie']).toBeUndefined();
      const etag = String(first.headers.etag);
      const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });
  }

  it('never shares a page older than the request: a new imprint shows on the next anonymous render', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/imprint' });
    await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent: 'page-agent-2', body: 'Freshly recorded words.' } });
    const burst = await Promise.all(Array.from({ length: 6 }, () => t.app.inject({ method: 'GET', url: '/imprint' })));
    for (const res of burst) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Freshly recorded words.');
    }
    expect(before.body).not.toContain('Freshly recorded words.');
  });
});

describe('personal live pages', () => {
  it('makes / and /imprint private, no-store for a signed-in visitor', async () => {
    const sovereign = await signedInSovereign(t.app);
    for (const url of ['/', '/imprint']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: sovereign.cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
  });

  it('makes a page shaped by a theme cookie private, no-store', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: 'civitas_theme=dark' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });
});
