/**
 * Live pages a CDN can carry: anonymous `/` and `/imprint` get shared-cache headers, an ETag and
 * 304s; a signed-in or cookie-carrying visitor never gets a shareable answer; and anonymous
 * requests that arrive together share one render without any of them seeing a page older than
 * its request. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  const arrived = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'page-agent', body: 'A first imprint for the pages.' },
  });
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
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'page-agent-2', body: 'Freshly recorded words.' },
    });
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => t.app.inject({ method: 'GET', url: '/imprint' })),
    );
    for (const res of burst) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Freshly recorded words.');
    }
    expect(before.body).not.toContain('Freshly recorded words.');
  });
});

describe('kept renders of pages that read the Record alone', () => {
  const renders = () => t.app.inject({ method: 'GET', url: '/', headers: { 'x-test': 'kept' } });

  it('send the kept bytes while the Record stands still, and a fresh render after any write to imprints, by any path', async () => {
    const first = await renders();
    const again = await renders();
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(first.headers['x-civitas-renders-from']).toBeUndefined(); // the page's mark never leaves

    // A write the Record's own door did not make (as erasure does): the revision moves, the page follows.
    const [newest = missing()] = await t.database.db.query<{ sequence: string }>(
      'select max(sequence) as sequence from imprints',
    );
    await t.database.db.query(
      "update imprints set body = 'Words changed in the store.' where sequence = $1",
      [newest.sequence],
    );
    const changed = await renders();
    expect(changed.body).toContain('Words changed in the store.');
    expect(changed.headers.etag).not.toBe(first.headers.etag);

    // An imprint through the door: the next anonymous render shows it.
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'page-agent-3', body: 'Seen on the kept page.' },
    });
    expect((await renders()).body).toContain('Seen on the kept page.');
  });

  it('are never kept for a page that did not read the Record alone, nor shared with a signed-in visitor', async () => {
    const sovereign = await signedInSovereign(t.app);
    const anonymous = await t.app.inject({ method: 'GET', url: '/' });
    const signedIn = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: sovereign.cookie } });
    expect(signedIn.body).not.toBe(anonymous.body);
    expect(signedIn.body).toContain(sovereign.tag);
    expect(anonymous.body).not.toContain(sovereign.tag);
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
