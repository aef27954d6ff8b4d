import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const same = { origin: TEST_ORIGIN };
const form = { ...same, 'content-type': 'application/x-www-form-urlencoded' };
const json = { ...same, accept: 'application/json' };

function sessionCookie(res: { cookies: { name: string; value: string }[] }): string {
  const cookie = res.cookies.find((c) => c.name === 'civitas_session');
  if (!cookie) throw new Error('no session cookie');
  return `civitas_session=${cookie.value}`;
}

async function cross(callsign?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/initiate',
    headers: json,
    payload: callsign ? { callsign } : {},
  });
  expect(res.statusCode).toBe(200);
  return { body: res.json(), cookie: sessionCookie(res), res };
}

describe('crossing at /initiate', () => {
  it('creates a sovereign, shows the key once, sets a private session cookie and records a receipt', async () => {
    const { body, res, cookie } = await cross('Ada');
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
    const me = await t.app.inject({
      method: 'GET',
      url: '/identity',
      headers: { accept: 'application/json', cookie },
    });
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
      const res = await t.app.inject({
        method: 'POST',
        url: '/initiate',
        headers: json,
        payload: { callsign },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
      expect(res.json().issues[0].path).toBe('callsign');
    }
    const after = await t.app.civitas.db.query<{ n: string }>('select count(*) as n from sovereigns');
    expect(at(after, 0).n).toBe(at(before, 0).n);
  });

  it('refuses cross-site POSTs to every credential door', async () => {
    for (const url of ['/initiate', '/return', '/reconcile', '/signout', '/theme', '/auth/idp/login']) {
      for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, {}]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'theme=dark&key=x',
        });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.json()).toMatchObject({ ok: false, reason: 'cross_origin_refused' });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
  });

  it('refuses off-origin return targets on every door that takes one', async () => {
    const { cookie } = await cross();
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
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...form, cookie },
          payload: `${fields}&return_to=${encodeURIComponent(target)}`,
        });
        expect(res.statusCode, `${url} → ${target}`).toBe(400);
        expect(res.json()).toMatchObject({ ok: false, reason: 'off_origin_target' });
        expect(res.headers.location).toBeUndefined();
      }
    }
  });
});

describe('return with the saved key, sign-out and sessions', () => {
  it('signs in with the key (303 to a local return target), rotates the session and signs out', async () => {
    const { body, cookie: first } = await cross();
    const back = await t.app.inject({
      method: 'POST',
      url: '/return',
      headers: { ...form, cookie: first },
      payload: `key=${encodeURIComponent(` ${body.key} `)}&return_to=%2Fsettings%2Fdata`,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/settings/data');
    const second = sessionCookie(back);
    expect(second).not.toBe(first);
    // The rotated-out session no longer opens anything.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/sovereign',
          headers: { cookie: first, accept: 'application/json' },
        })
      ).statusCode,
    ).toBe(401);
    const owner = await t.app.inject({
      method: 'GET',
      url: '/sovereign',
      headers: { cookie: second, accept: 'application/json' },
    });
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toMatchObject({ ok: true, tag: body.tag });
    expect(owner.headers['cache-control']).toBe('private, no-store');

    const out = await t.app.inject({
      method: 'POST',
      url: '/signout',
      headers: { ...form, cookie: second },
      payload: 'return_to=%2Freturn',
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/return');
    expect(String(out.headers['set-cookie'])).toMatch(/civitas_session=;/);
    expect(out.headers['cache-control']).toBe('private, no-store');
    const after = await t.app.inject({
      method: 'GET',
      url: '/sovereign',
      headers: { cookie: second, accept: 'application/json' },
    });
    expect(after.statusCode).toBe(401);
    const revoked = await t.app.civitas.db.query<{ n: string }>(
      'select count(*) as n from sessions where revoked_at is not null',
    );
    expect(Number(at(revoked, 0).n)).toBeGreaterThanOrEqual(2);
  });

  it('refuses a wrong, malformed, empty or huge key without setting a cookie', async () => {
    for (const key of ['sk_' + 'A'.repeat(43), 'nonsense', '', 'x'.repeat(5000)]) {
      const res = await t.app.inject({ method: 'POST', url: '/return', headers: json, payload: { key } });
      expect([400, 401], key.slice(0, 10)).toContain(res.statusCode);
      expect(res.json().ok).toBe(false);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const viaForm = await t.app.inject({
      method: 'POST',
      url: '/return',
      headers: form,
      payload: 'key=sk_wrong&return_to=%2Fsovereign',
    });
    expect(viaForm.statusCode).toBe(303);
    expect(viaForm.headers.location).toBe('/return?failed=key&return_to=%2Fsovereign');
  });

  it('slides the session: used within 30 days it lives on; unused for 30 days it ends', async () => {
    const { cookie } = await cross();
    for (let i = 0; i < 3; i++) {
      t.clock.advance(20 * 86_400_000);
      const res = await t.app.inject({
        method: 'GET',
        url: '/sovereign',
        headers: { cookie, accept: 'application/json' },
      });
      expect(res.statusCode).toBe(200);
    }
    t.clock.advance(31 * 86_400_000);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/sovereign',
          headers: { cookie, accept: 'application/json' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('sends a browser to /return (and back) for a scoped page, but API clients get 401 JSON', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/settings/data?x=1',
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/return?return_to=%2Fsettings%2Fdata%3Fx%3D1');
    const api = await t.app.inject({
      method: 'GET',
      url: '/settings/data',
      headers: { accept: 'application/json' },
    });
    expect(api.statusCode).toBe(401);
    expect(api.json()).toMatchObject({ reason: 'identity_required', scope: 'sovereign:read' });
  });

  it('handles concurrent sign-ins with one key: every session is distinct and valid', async () => {
    const { body } = await cross();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({ method: 'POST', url: '/return', headers: json, payload: { key: body.key } }),
      ),
    );
    const cookies = results.map((r) => {
      expect(r.statusCode).toBe(200);
      return sessionCookie(r);
    });
    expect(new Set(cookies).size).toBe(6);
  });
});

describe('/reconcile', () => {
  it('needs a session (identity:reconcile), then recovers another identity by its key into the session', async () => {
    const old = await cross('Old');
    const anon = await t.app.inject({
      method: 'POST',
      url: '/reconcile',
      headers: json,
      payload: { key: old.body.key },
    });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ reason: 'identity_required', scope: 'identity:reconcile' });

    const fresh = await cross('New');
    const res = await t.app.inject({
      method: 'POST',
      url: '/reconcile',
      headers: { ...json, cookie: fresh.cookie },
      payload: { key: old.body.key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, tag: old.body.tag, provider_moved: false });
    const now = sessionCookie(res);
    const me = await t.app.inject({
      method: 'GET',
      url: '/identity',
      headers: { accept: 'application/json', cookie: now },
    });
    expect(me.json()).toMatchObject({ tag: old.body.tag, callsign: 'Old' });
    // The session it replaced is revoked.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/sovereign',
          headers: { accept: 'application/json', cookie: fresh.cookie },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('POST /theme', () => {
  it('sets the theme cookie and returns to a local path only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/theme',
      headers: form,
      payload: 'theme=dark&return_to=%2Fimprint%3Fbefore%3D3',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/imprint?before=3');
    expect(String(res.headers['set-cookie'])).toMatch(/civitas_theme=dark/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const system = await t.app.inject({
      method: 'POST',
      url: '/theme',
      headers: form,
      payload: 'theme=system',
    });
    expect(system.headers.location).toBe('/');
    expect(String(system.headers['set-cookie'])).toMatch(/civitas_theme=;/);
    const bad = await t.app.inject({ method: 'POST', url: '/theme', headers: form, payload: 'theme=neon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].path).toBe('theme');
  });
});

describe('identity provider unconfigured', () => {
  it('the login door says so and points to /return', async () => {
    const api = await t.app.inject({ method: 'POST', url: '/auth/idp/login', headers: json, payload: {} });
    expect(api.statusCode).toBe(503);
    expect(api.json()).toMatchObject({ ok: false, reason: 'provider_unavailable', alternative: '/return' });
    expect(api.json().hint).toContain('/return');
    const browser = await t.app.inject({
      method: 'POST',
      url: '/auth/idp/login',
      headers: form,
      payload: '',
    });
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toBe('/return?idp=unconfigured&return_to=%2Fsovereign');
    const identity = await t.app.inject({
      method: 'GET',
      url: '/identity',
      headers: { accept: 'application/json' },
    });
    expect(identity.json()).toMatchObject({
      signed_in: false,
      sign_in_methods: { provider_configured: false },
    });
  });
});

describe('owner settings', () => {
  it('callsign visibility shows the callsign on the public passport only when chosen', async () => {
    const me = await signedInSovereign(t.app, { callsign: 'Quiet' });
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/passport?tag=${me.tag}`,
      headers: { accept: 'application/json' },
    });
    const view = hidden.json();
    if (view.status === 'addressable') expect(view.holder.callsign).toBeNull();
    const res = await t.app.inject({
      method: 'POST',
      url: '/sovereign/callsign-visibility',
      headers: { ...json, cookie: me.cookie },
      payload: { visible: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, callsign: 'Quiet', callsign_visible: true });
    const shown = (
      await t.app.inject({
        method: 'GET',
        url: `/passport?tag=${me.tag}`,
        headers: { accept: 'application/json' },
      })
    ).json();
    if (shown.status === 'addressable') expect(shown.holder.callsign).toBe('Quiet');
    expect(JSON.stringify(shown)).not.toContain(me.id);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/sovereign/callsign-visibility',
      headers: { ...json, cookie: me.cookie },
      payload: { visible: 'maybe' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a changed actor identifier never gets round a denial', async () => {
    const me = await signedInSovereign(t.app);
    const other = await signedInSovereign(t.app, { callsign: 'Other' });
    // Naming the other sovereign anywhere in the request changes nothing: the session decides.
    const res = await t.app.inject({
      method: 'POST',
      url: '/sovereign/callsign-visibility?sovereign_id=' + other.tag,
      headers: { ...json, cookie: me.cookie, 'x-civitas-actor': `sovereign:${other.tag}` },
      payload: { visible: true, sovereign_id: other.tag, actor: `sovereign:${other.tag}`, id: other.id },
    });
    expect(res.statusCode).toBe(200);
    const [row = missing()] = await t.app.civitas.db.query<{ callsign_visible: boolean }>(
      'select callsign_visible from sovereigns where id = $1',
      [other.id],
    );
    expect(row.callsign_visible).toBe(false);
    // Steward work stays 403 whatever the body claims.
    const steward = await t.app.inject({
      method: 'POST',
      url: '/steward/data-requests',
      headers: { ...json, cookie: me.cookie },
      payload: { id: 'dr_x', action: 'complete', steward: true, actor: 'steward' },
    });
    expect(steward.statusCode).toBe(403);
    expect(steward.json()).toMatchObject({ reason: 'scope_required', scope: 'steward:write' });
  });
});
