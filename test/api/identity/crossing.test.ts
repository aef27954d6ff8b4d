import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { crossed } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at } from '../../helpers/elements.ts';

/**
 * The credential doors a person meets before they have a session: crossing at /initiate, the theme,
 * and the identity provider's login when none is configured; all of them refuse cross-site posts and
 * off-origin return targets. Returning with the key and what a session then decides are in
 * sessions.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get, post, form } = requests(() => t.app);
const same = { origin: TEST_ORIGIN };

describe('crossing at /initiate', () => {
  it('creates a sovereign, shows the key once, sets a private session cookie and records a receipt', async () => {
    const { body, res, cookie } = await crossed(t.app, 'Ada');
    expect(body).toMatchObject({ ok: true, ref: `sovereign:${body.tag}` });
    expect(body.key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(body.tag).toMatch(/^[0-9a-f]{4}$/);
    expect(body.receipt_id).toMatch(/^rcpt_/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    // Only the hash of the key is stored.
    const rows = await t.app.civitas.db.query<{ key_hash: string; callsign: string }>(
      'select key_hash, callsign from sovereigns where tag = $1',
      [body.tag],
    );
    expect(rows.some((r) => r.callsign === 'Ada' && r.key_hash && !r.key_hash.includes(body.key))).toBe(true);
    const me = await get('/identity', cookie);
    expect(me.json()).toMatchObject({
      signed_in: true,
      tag: body.tag,
      callsign: 'Ada',
      sign_in_methods: { key: true },
    });
    expect(me.json().scopes).toEqual(
      expect.arrayContaining(['sovereign:read', 'sovereign:write', 'identity:reconcile']),
    );
    expect(JSON.stringify(me.json())).not.toContain(body.key);
  });

  it('refuses a malformed callsign with a clear 400 and creates nothing', async () => {
    const before = await t.app.civitas.db.query<{ n: string }>('select count(*) as n from sovereigns');
    for (const callsign of ['<script>', 'x'.repeat(41), 'a\u0000b']) {
      const res = await post('/initiate', { callsign }, same);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
      expect(res.json().issues[0].path).toBe('callsign');
    }
    const after = await t.app.civitas.db.query<{ n: string }>('select count(*) as n from sovereigns');
    expect(at(after, 0).n).toBe(at(before, 0).n);
  });

  it('refuses cross-site POSTs to every credential door', async () => {
    const hostile: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      {},
    ];
    for (const url of ['/initiate', '/return', '/reconcile', '/signout', '/theme', '/auth/idp/login']) {
      for (const headers of hostile) {
        const res = await form(url, 'theme=dark&key=x', headers);
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.json()).toMatchObject({ ok: false, reason: 'cross_origin_refused' });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
  });

  it('refuses off-origin return targets on every door that takes one', async () => {
    const { cookie } = await crossed(t.app);
    const targets = [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      'javascript:alert(1)',
      '/a/..//evil',
    ];
    const doors: [string, string][] = [
      ['/initiate', ''],
      ['/return', 'key=sk_x'],
      ['/signout', ''],
      ['/theme', 'theme=dark'],
      ['/auth/idp/login', ''],
      ['/sovereign/callsign-visibility', 'visible=true'],
      ['/settings/data/request', 'kind=export'],
    ];
    for (const [url, fields] of doors) {
      for (const target of targets) {
        const res = await form(url, `${fields}&return_to=${encodeURIComponent(target)}`, {
          ...same,
          cookie,
        });
        expect(res.statusCode, `${url} → ${target}`).toBe(400);
        expect(res.json()).toMatchObject({ ok: false, reason: 'off_origin_target' });
        expect(res.headers.location).toBeUndefined();
      }
    }
  });
});

describe('POST /theme', () => {
  it('sets the theme cookie and returns to a local path only', async () => {
    const res = await form('/theme', 'theme=dark&return_to=%2Fimprint%3Fbefore%3D3', same);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/imprint?before=3');
    expect(String(res.headers['set-cookie'])).toMatch(/civitas_theme=dark/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const system = await form('/theme', 'theme=system', same);
    expect(system.headers.location).toBe('/');
    expect(String(system.headers['set-cookie'])).toMatch(/civitas_theme=;/);
    const bad = await form('/theme', 'theme=neon', same);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].path).toBe('theme');
  });
});

describe('identity provider unconfigured', () => {
  it('the login door says so and points to /return', async () => {
    const api = await post('/auth/idp/login', {}, same);
    expect(api.statusCode).toBe(503);
    expect(api.json()).toMatchObject({ ok: false, reason: 'provider_unavailable', alternative: '/return' });
    expect(api.json().hint).toContain('/return');
    const browser = await form('/auth/idp/login', '', same);
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toBe('/return?idp=unconfigured&return_to=%2Fsovereign');
    const identity = await get('/identity');
    expect(identity.json()).toMatchObject({
      signed_in: false,
      sign_in_methods: { provider_configured: false },
    });
  });
});
