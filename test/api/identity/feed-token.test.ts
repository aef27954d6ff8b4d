/**
 * Personal due-feed subscriptions for real clients: a calendar app fetches /sovereign/due.ics with
 * the feed token in the URL and no cookie (over a real socket), parses it with a real iCalendar
 * parser; rotation kills the old URL; only the token's hash is stored.
 */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrlTokens } from '../../../api/identity/feed-token.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { fromOwnPages } from '../../helpers/builders.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
let base: string;
let me: TestSovereign;
const { get, post, form, raw } = requests(() => t.app);
beforeAll(async () => {
  // With the built site mounted, so the owner page that shows the address is rendered too.
  t = await createTestApp({ site: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  me = await signedInSovereign(t.app);
  // Something due: a pending export request.
  const filed = await post('/settings/data/request', { kind: 'export' }, me);
  expect(filed.statusCode).toBe(200);
});
afterAll(async () => t?.close());

const rotate = async (who: TestSovereign, action = 'rotate_feed_token') =>
  post('/sovereign/email', { action }, who);
/** What a calendar app does: a plain GET of the pasted URL, no cookie. */
const subscribe = (url: string) =>
  fetch(url.replace(TEST_ORIGIN, base), { headers: { accept: 'text/calendar, application/atom+xml, */*' } });

describe('due feed tokens', () => {
  let first: { token: string; ics: string; atom: string };

  it('are made on the owner door, answered once, and stored only as a hash', async () => {
    const res = await rotate(me);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const body = res.json();
    expect(body).toMatchObject({ ok: true, status: 'feed_token_rotated' });
    first = body.subscription;
    expect(first.token).toMatch(/^ft_[A-Za-z0-9_-]{43}$/);
    expect(first.ics).toBe(`${TEST_ORIGIN}/sovereign/due.ics?token=${first.token}`);
    expect(first.atom).toBe(`${TEST_ORIGIN}/sovereign/due.xml?token=${first.token}`);
    const [row = missing()] = await t.database.db.query<Record<string, unknown>>(
      'select * from sovereigns where id = $1',
      [me.id],
    );
    expect(row.due_token_hash).toBe(createHash('sha256').update(first.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(first.token);
    const owner = (await get('/sovereign', me)).json();
    expect(owner.due).toMatchObject({ token_set: true, subscription: null });
    expect(JSON.stringify(owner)).not.toContain(first.token);
  });

  it('open the calendar and the Atom feed for a client with no cookie; the calendar parses', async () => {
    const [before = missing()] = await t.database.db.query<{ last_seen_at: string | null }>(
      'select last_seen_at from sovereigns where id = $1',
      [me.id],
    );
    t.clock.advance(60_000);
    const calendar = await subscribe(first.ics);
    expect(calendar.status).toBe(200);
    expect(calendar.headers.get('content-type')).toContain('text/calendar');
    expect(calendar.headers.get('cache-control')).toContain('private');
    const vcalendar = new ICAL.Component(ICAL.parse(await calendar.text()));
    expect(vcalendar.name).toBe('vcalendar');
    const events = vcalendar.getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    expect(events.map((e) => e.summary)).toContain('Your export request awaits a steward');
    expect(String(vcalendar.getFirstPropertyValue('x-wr-calname'))).toContain(me.tag);

    const atom = await subscribe(first.atom);
    expect(atom.status).toBe(200);
    expect(atom.headers.get('content-type')).toContain('application/atom+xml');
    const text = await atom.text();
    expect(text).toContain('Your export request awaits a steward');
    expect(text).not.toContain(first.token);
    // A calendar polling is not a person present.
    const [after = missing()] = await t.database.db.query<{ last_seen_at: string | null }>(
      'select last_seen_at from sovereigns where id = $1',
      [me.id],
    );
    expect(after.last_seen_at).toEqual(before.last_seen_at);
  });

  it('die on rotation: the old URL is refused 401 in the one error shape, the new one works', async () => {
    const second = (await rotate(me)).json().subscription;
    expect(second.token).not.toBe(first.token);
    for (const url of [first.ics, first.atom]) {
      const old = await subscribe(url);
      expect(old.status).toBe(401);
      const body = await old.json();
      expect(body).toEqual({
        ok: false,
        reason: 'identity_required',
        hint: expect.stringContaining('rotated'),
      });
    }
    expect((await subscribe(second.ics)).status).toBe(200);
    // A token decides even beside a valid cookie: the URL means the same whoever opens it.
    const withCookie = await raw(`/sovereign/due.ics?token=${first.token}`, { cookie: me.cookie });
    expect(withCookie.statusCode).toBe(401);

    expect((await rotate(me, 'revoke_feed_token')).json()).toEqual({
      ok: true,
      status: 'feed_token_revoked',
    });
    expect((await subscribe(second.ics)).status).toBe(401);
    for (const bad of ['', 'ft_short', `${second.token}x`, 'x'.repeat(300)]) {
      expect((await raw(`/sovereign/due.xml?token=${encodeURIComponent(bad)}`)).statusCode).toBe(401);
    }
    expect((await raw('/sovereign/due.ics')).statusCode).toBe(401);
  });

  it("open only their own sovereign's feed", async () => {
    const other = await signedInSovereign(t.app);
    const mine = (await rotate(me)).json().subscription;
    const theirs = (await rotate(other)).json().subscription;
    expect(await (await subscribe(mine.ics)).text()).toContain('Your export request awaits a steward');
    expect(await (await subscribe(theirs.ics)).text()).not.toContain('Your export request awaits a steward');
  });

  it('are shown once on the owner page after a form post, never in the redirect URL', async () => {
    const rotated = await form('/sovereign/email', 'action=rotate_feed_token', fromOwnPages(me));
    expect(rotated.statusCode).toBe(303);
    const location = String(rotated.headers.location);
    expect(location).toMatch(/^\/sovereign\?feed=fl_/);
    expect(location).not.toContain('ft_');
    const page = await raw(location, { cookie: me.cookie, accept: 'text/html' });
    expect(page.statusCode).toBe(200);
    const shownOnPage = page.body.match(
      /value="(http:\/\/civitas\.test\/sovereign\/due\.ics\?token=(ft_[A-Za-z0-9_-]{43}))"/,
    );
    expect(shownOnPage).not.toBeNull();
    expect((await subscribe(at(shownOnPage!, 1))).status).toBe(200);
    const reloaded = await raw(location, { cookie: me.cookie, accept: 'text/html' });
    expect(reloaded.body).not.toContain(shownOnPage![2]);
    expect(reloaded.body).toContain('Rotate the subscription address');

    const again0 = await form('/sovereign/email', 'action=rotate_feed_token', fromOwnPages(me));
    const next = String(again0.headers.location);
    expect((await subscribe(at(shownOnPage!, 1))).status).toBe(401);
    const open = () => get(next, me);
    const shown = (await open()).json().due.subscription;
    expect(shown.token).toMatch(/^ft_/);
    expect((await subscribe(shown.ics)).status).toBe(200);
    expect((await open()).json().due.subscription).toBeNull();
    // Another session cannot open the flash.
    const stranger = await signedInSovereign(t.app);
    const again = await form('/sovereign/email', 'action=rotate_feed_token', fromOwnPages(me));
    const peek = await get(String(again.headers.location), stranger);
    expect(peek.json().due.subscription).toBeNull();
  });

  it('are masked in logged URLs', () => {
    expect(redactUrlTokens('/sovereign/due.ics?token=ft_abc&x=1')).toBe(
      '/sovereign/due.ics?token=[redacted]&x=1',
    );
    expect(redactUrlTokens('/sovereign?email_token=abc')).toBe('/sovereign?email_token=[redacted]');
    expect(redactUrlTokens('/sovereign/due.xml')).toBe('/sovereign/due.xml');
  });
});
