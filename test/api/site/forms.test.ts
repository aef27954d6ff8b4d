/**
 * Forms never strand anyone (api/http.ts + api/plugins/errors.ts): a failed browser form answers
 * 303 back to its page, which shows the error in place with what was typed; a browser navigation
 * that fails gets an HTML page in the site's layout; JSON clients keep the one error shape.
 * Needs the built site (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { firstOf } from '../../helpers/elements.ts';

let t: TestApp;
let me: TestSovereign;
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

beforeAll(async () => {
  t = await createTestApp({ site: true });
  me = await signedInSovereign(t.app, { callsign: 'Wren' });
});
afterAll(async () => t?.close());

function flashCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => c.startsWith('civitas_flash='));
  expect(found, 'a flash cookie is set').toBeTruthy();
  return firstOf(found!.split(';'));
}

const http = requests(() => t.app);
async function postForm(url: string, fields: Record<string, string>, from: string, cookie = '') {
  return http.form(url, fields, cookie || undefined, {
    accept: HTML,
    referer: `${TEST_ORIGIN}${from}`,
    host: 'civitas.test',
    origin: TEST_ORIGIN,
  });
}

describe('a failed form goes back to its page with its words', () => {
  it('/imprint with an unknown Sovereign ID: 303 to /imprint, the error in place, the text kept, once', async () => {
    const text = 'A thought I do not want to type twice — with <angle> & ampersand';
    const res = await postForm(
      '/api/agent/imprint',
      { sovereign_id: 'zzzz', body: text, kind: 'question' },
      '/imprint',
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/imprint');
    expect(res.body).toBe('');
    const cookie = flashCookie(res.headers['set-cookie']);

    const page = await t.app.inject({ url: '/imprint', headers: { accept: HTML, cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('role="alert"');
    expect(page.body).toContain('A thought I do not want to type twice — with &lt;angle&gt; &amp; ampersand');
    expect(page.body).toMatch(/<option value="question" selected/);
    expect(page.headers['cache-control']).toContain('no-store');

    const again = await t.app.inject({ url: '/imprint', headers: { accept: HTML, cookie } });
    expect(again.body).not.toContain('A thought I do not want to type twice');
  });

  it('a signed-in reply to #999 comes back with the message on the reply field and the body kept', async () => {
    const res = await postForm(
      '/sovereign/imprint',
      { body: 'Replying into the void', kind: 'thought', reply_to: '999' },
      '/imprint',
      me.cookie,
    );
    expect(res.statusCode).toBe(303);
    const page = await t.app.inject({
      url: '/imprint',
      headers: { accept: HTML, cookie: `${me.cookie}; ${flashCookie(res.headers['set-cookie'])}` },
    });
    expect(page.body).toContain('Replying into the void');
    expect(page.body).toContain('value="999"');
    expect(page.body).toContain('role="alert"');
  });

  it('/sovereign "Send a confirmation" with mail off: the button is disabled with the reason; a post anyway returns with the address kept', async () => {
    const view = await t.app.inject({ url: '/sovereign', headers: { accept: HTML, cookie: me.cookie } });
    expect(view.body).toContain('Email is switched off on this instance');
    expect(view.body).toMatch(/<button type="submit" disabled[^>]*>Send a confirmation/);
    const res = await postForm(
      '/sovereign/email',
      { email: 'wren@example.org', action: 'set' },
      '/sovereign',
      me.cookie,
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/sovereign');
    const page = await t.app.inject({
      url: '/sovereign',
      headers: { accept: HTML, cookie: `${me.cookie}; ${flashCookie(res.headers['set-cookie'])}` },
    });
    expect(page.body).toContain('This is switched off right now');
    expect(page.body).toContain('value="wren@example.org"');
  });

  it('/endow checkout with payments off: doors disabled with the reason; a post anyway goes back, never JSON', async () => {
    const view = await t.app.inject({ url: '/endow', headers: { accept: HTML } });
    expect(view.body).toContain('Payments are switched off');
    expect(view.body).not.toContain('Amount in cents');
    const res = await postForm('/api/covenant', { name: 'Night watch', amount_major: '12.50' }, '/endow');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/endow');
    const page = await t.app.inject({
      url: '/endow',
      headers: { accept: HTML, cookie: flashCookie(res.headers['set-cookie']) },
    });
    expect(page.body).toContain('value="Night watch"');
    expect(page.body).toContain('value="12.50"');
  });

  it('secret-bearing fields are never kept', async () => {
    const res = await postForm('/return', { key: 'sk_not_a_real_key_at_all' }, '/return');
    expect(res.statusCode).toBe(303);
    const cookie = res.headers['set-cookie'];
    const all = Array.isArray(cookie) ? cookie : cookie ? [cookie] : [];
    const flash = all.find((c) => c.startsWith('civitas_flash='));
    if (flash) {
      const rows = await t.app.civitas.db.query<{ payload: unknown }>('select payload from form_flashes');
      expect(JSON.stringify(rows)).not.toContain('sk_not_a_real_key_at_all');
    }
  });

  it('JSON clients and form posts without a page to go back to keep the error shape', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: { sovereign_id: 'zzzz', body: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
    const bare = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'sovereign_id=zzzz&body=x',
    });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
  });
});

describe('HTML error pages for browser navigations', () => {
  it('a mistyped URL: 404 HTML in the layout for a browser, JSON for a machine', async () => {
    const page = await t.app.inject({ url: '/no/such/page', headers: { accept: HTML } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Nothing lives here');
    expect(page.body).toContain('class="site-header"');
    const json = await t.app.inject({ url: '/no/such/page' });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ ok: false, reason: 'not_found' });
  });

  it('/operator and /steward/data-requests for a non-steward answer HTML 403 to a browser', async () => {
    for (const url of ['/operator', '/steward/data-requests']) {
      const page = await t.app.inject({ url, headers: { accept: HTML, cookie: me.cookie } });
      expect(page.statusCode, url).toBe(403);
      expect(page.headers['content-type'], url).toContain('text/html');
      expect(page.body, url).toContain('This page is not open to you');
      const json = await t.app.inject({ url, headers: { accept: 'application/json', cookie: me.cookie } });
      expect(json.json(), url).toMatchObject({ ok: false, reason: 'scope_required' });
    }
  });

  it('a 405 and a 501 read as pages too', async () => {
    const page = await t.app.inject({ method: 'DELETE', url: '/imprint', headers: { accept: HTML } });
    expect([404, 405]).toContain(page.statusCode);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
