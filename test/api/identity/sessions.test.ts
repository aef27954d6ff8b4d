import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { crossed, sessionCookie, signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at, missing } from '../../helpers/elements.ts';

/**
 * What a session is and decides: returning with the saved key (rotating the session), signing out,
 * a session that slides while used, several at once, recovering another identity into it
 * (/reconcile), and the owner's settings, where the session, never a name in the request, says who
 * acts. Crossing itself is crossing.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get, page, post, form } = requests(() => t.app);
const same = { origin: TEST_ORIGIN };

describe('return with the saved key, sign-out and sessions', () => {
  it('signs in with the key (303 to a local return target), rotates the session and signs out', async () => {
    const { body, cookie: first } = await crossed(t.app);
    const back = await form(
      '/return',
      `key=${encodeURIComponent(` ${body.key} `)}&return_to=%2Fsettings%2Fdata`,
      { ...same, cookie: first },
    );
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/settings/data');
    const second = sessionCookie(back);
    expect(second).not.toBe(first);
    // The rotated-out session no longer opens anything.
    expect((await get('/sovereign', first)).statusCode).toBe(401);
    const owner = await get('/sovereign', second);
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toMatchObject({ ok: true, tag: body.tag });
    expect(owner.headers['cache-control']).toBe('private, no-store');

    const out = await form('/signout', 'return_to=%2Freturn', { ...same, cookie: second });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/return');
    expect(String(out.headers['set-cookie'])).toMatch(/civitas_session=;/);
    expect(out.headers['cache-control']).toBe('private, no-store');
    expect((await get('/sovereign', second)).statusCode).toBe(401);
    const revoked = await t.app.civitas.db.query<{ n: string }>(
      'select count(*) as n from sessions where revoked_at is not null',
    );
    expect(Number(at(revoked, 0).n)).toBeGreaterThanOrEqual(2);
  });

  it('refuses a wrong, malformed, empty or huge key without setting a cookie', async () => {
    for (const key of ['sk_' + 'A'.repeat(43), 'nonsense', '', 'x'.repeat(5000)]) {
      const res = await post('/return', { key }, same);
      expect([400, 401], key.slice(0, 10)).toContain(res.statusCode);
      expect(res.json().ok).toBe(false);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const viaForm = await form('/return', 'key=sk_wrong&return_to=%2Fsovereign', same);
    expect(viaForm.statusCode).toBe(303);
    expect(viaForm.headers.location).toBe('/return?failed=key&return_to=%2Fsovereign');
  });

  it('slides the session: used within 30 days it lives on; unused for 30 days it ends', async () => {
    const { cookie } = await crossed(t.app);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(20 * 86_400_000);
      expect((await get('/sovereign', cookie)).statusCode).toBe(200);
    }
    t.clock.advance(31 * 86_400_000);
    expect((await get('/sovereign', cookie)).statusCode).toBe(401);
  });

  it('sends a browser to /return (and back) for a scoped page, but API clients get 401 JSON', async () => {
    const browser = await page('/settings/data?x=1');
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toBe('/return?return_to=%2Fsettings%2Fdata%3Fx%3D1');
    const api = await get('/settings/data');
    expect(api.statusCode).toBe(401);
    expect(api.json()).toMatchObject({ reason: 'identity_required', scope: 'sovereign:read' });
  });

  it('handles concurrent sign-ins with one key: every session is distinct and valid', async () => {
    const { body } = await crossed(t.app);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post('/return', { key: body.key }, same)),
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
    const old = await crossed(t.app, 'Old');
    const anon = await post('/reconcile', { key: old.body.key }, same);
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ reason: 'identity_required', scope: 'identity:reconcile' });

    const fresh = await crossed(t.app, 'New');
    const res = await post('/reconcile', { key: old.body.key }, { ...same, cookie: fresh.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, tag: old.body.tag, provider_moved: false });
    const now = sessionCookie(res);
    const me = await get('/identity', now);
    expect(me.json()).toMatchObject({ tag: old.body.tag, callsign: 'Old' });
    // The session it replaced is revoked.
    expect((await get('/sovereign', fresh.cookie)).statusCode).toBe(401);
  });
});

describe('owner settings', () => {
  it('callsign visibility shows the callsign on the public passport only when chosen', async () => {
    const me = await signedInSovereign(t.app, { callsign: 'Quiet' });
    const hidden = await get(`/passport?tag=${me.tag}`);
    const view = hidden.json();
    if (view.status === 'addressable') expect(view.holder.callsign).toBeNull();
    const res = await post(
      '/sovereign/callsign-visibility',
      { visible: true },
      { ...same, cookie: me.cookie },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, callsign: 'Quiet', callsign_visible: true });
    const shown = (await get(`/passport?tag=${me.tag}`)).json();
    if (shown.status === 'addressable') expect(shown.holder.callsign).toBe('Quiet');
    expect(JSON.stringify(shown)).not.toContain(me.id);
    const bad = await post(
      '/sovereign/callsign-visibility',
      { visible: 'maybe' },
      { ...same, cookie: me.cookie },
    );
    expect(bad.statusCode).toBe(400);
  });

  it('a changed actor identifier never gets round a denial', async () => {
    const me = await signedInSovereign(t.app);
    const other = await signedInSovereign(t.app, { callsign: 'Other' });
    // Naming the other sovereign anywhere in the request changes nothing: the session decides.
    const res = await post(
      '/sovereign/callsign-visibility?sovereign_id=' + other.tag,
      { visible: true, sovereign_id: other.tag, actor: `sovereign:${other.tag}`, id: other.id },
      { ...same, cookie: me.cookie, 'x-civitas-actor': `sovereign:${other.tag}` },
    );
    expect(res.statusCode).toBe(200);
    const [row = missing()] = await t.app.civitas.db.query<{ callsign_visible: boolean }>(
      'select callsign_visible from sovereigns where id = $1',
      [other.id],
    );
    expect(row.callsign_visible).toBe(false);
    // Steward work stays 403 whatever the body claims.
    const steward = await post(
      '/steward/data-requests',
      { id: 'dr_x', action: 'complete', steward: true, actor: 'steward' },
      { ...same, cookie: me.cookie },
    );
    expect(steward.statusCode).toBe(403);
    expect(steward.json()).toMatchObject({ reason: 'scope_required', scope: 'steward:write' });
  });
});
