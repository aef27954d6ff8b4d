import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { sovereignImprint } from '../helpers/builders.ts';
import { signedInSovereign } from '../helpers/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Something to list: an imprint on the pulse, a pact coming due on the almanac.
  const dana = await signedInSovereign(t.app);
  await sovereignImprint(t.app, dana, 'feeds stay still');
  const pact = await t.app.inject({
    method: 'POST',
    url: '/sovereign/pact',
    headers: { cookie: dana.cookie },
    payload: { title: 'keep the feeds still', stake: 1, due_in_days: 3 },
  });
  expect(pact.statusCode, pact.body).toBeLessThan(400);
});
afterAll(async () => t?.close());

const FEEDS = ['/feed/pulse', '/almanac.xml', '/streaks.xml', '/almanac.ics'];

describe('feeds change only when their content does', () => {
  it.each(FEEDS)('%s: same bytes and ETag a second later, then 304 on If-None-Match', async (url) => {
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    if (url === '/almanac.ics') expect(first.body).toContain('BEGIN:VEVENT');
    t.clock.advance(1_000);
    const second = await t.app.inject({ method: 'GET', url });
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    t.clock.advance(60_000);
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("dates an Atom feed's updated by its newest entry, not by now", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/feed/pulse' });
    const updated = /<feed[^]*?<updated>([^<]+)<\/updated>/.exec(res.body)?.[1];
    const entries = [...res.body.matchAll(/<entry>[^]*?<updated>([^<]+)<\/updated>/g)].map((m) => m[1]!);
    expect(entries.length).toBeGreaterThan(0);
    expect(updated).toBe(entries.sort().at(-1));
    expect(Date.parse(updated!)).toBeLessThan(t.clock.now().getTime());
  });
});
