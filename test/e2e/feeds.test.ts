/**
 * Feeds for people, in real Chromium: a person who follows a feed link lands on a readable page (the
 * feed's entries and its subscribe panel), while a feed reader gets the feed kind and content type
 * the contract gives, a body that parses, and `Vary: Accept` on both. Pages that offer a feed show
 * the subscribe panel: the address with a working copy button, `webcal:` for calendars, `feed:` for
 * readers. axe 0 violations on every feed opened as a page (the pages offering a feed, at 390 px
 * signed out, are sweep.test.ts's to check).
 */
import { DOMParser } from '@xmldom/xmldom';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeHere, shot, startE2E, type E2E } from '../helpers/e2e.ts';
import { requests } from '../helpers/http.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { until } from '../helpers/wait.ts';

let e2e: E2E;
let base: string;
let receiptId: string;
let person: TestSovereign;
const { raw } = requests(() => e2e.t.app);

beforeAll(async () => {
  e2e = await startE2E();
  base = e2e.base;
  const t = e2e.t;
  receiptId = (
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'e2e-feeds', body: 'Feeds should read like pages.' },
    })
  ).json().receipt_id;
  person = await signedInSovereign(t.app, { callsign: 'Subscriber' });
}, 180_000);

afterAll(async () => {
  await e2e?.close();
});

async function context(who?: TestSovereign): Promise<BrowserContext> {
  return e2e.context({ width: 390, as: who });
}

const ATOM = () => [
  '/almanac.xml',
  '/streaks.xml',
  '/feed/pulse',
  '/mind/feed.xml',
  '/verdicts.xml',
  '/reversals.xml',
  '/witness/feed.xml',
  `/receipt/${receiptId}/feed.xml`,
];

/** What a feed reader sends: the feed's type or anything, and no navigation headers. */
const READER = { accept: 'application/atom+xml, application/xml;q=0.9, */*;q=0.8' };

function parsesAsXml(body: string): boolean {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => void errors.push(`${level}: ${message}`) });
  const parsed = doc.parseFromString(body, 'application/xml');
  return errors.length === 0 && parsed.documentElement?.localName === 'feed';
}

describe('a browser following a feed link', () => {
  it('reads each Atom feed as a page with its entries and a subscribe panel', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    for (const path of ATOM()) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status(), path).toBe(200);
      expect(response?.headers()['content-type'], path).toMatch(/^text\/html/);
      expect(response?.headers()['vary'], path).toMatch(/Accept/);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const panel = page.locator('section.subscribe');
      expect(await panel.count(), path).toBe(1);
      expect(await panel.locator('input').inputValue(), path).toBe(`${base}${path}`);
      expect(await panel.getByRole('link', { name: 'Open in a feed reader' }).getAttribute('href')).toBe(
        `feed:${base}${path}`,
      );
      expect(await page.locator('main').innerText(), path).not.toContain('<?xml');
      expect(await axeHere(page), path).toEqual([]);
      await shot(page, `feed${path.replace(/\//g, '-')}`);
    }
    // The receipt's feed lists its first status, linking back to the receipt.
    await page.goto(`${base}/receipt/${receiptId}/feed.xml`);
    expect(await page.locator('ol.feed-items > li').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('reads the calendar and JSON feeds, and a signed-in person their due feeds, as pages', async () => {
    const ctx = await context(person);
    const page = await ctx.newPage();
    for (const [path, link] of [
      ['/almanac.ics', 'Open in your calendar'],
      ['/sovereign/due.ics', 'Open in your calendar'],
      ['/sovereign/due.xml', 'Open in a feed reader'],
      ['/imprint/feed.json', 'Open in a feed reader'],
      ['/collaborate/feed.json', 'Open in a feed reader'],
    ]) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status(), path).toBe(200);
      expect(response?.headers()['content-type'], path).toMatch(/^text\/html/);
      const href = await page
        .locator('section.subscribe')
        .getByRole('link', { name: link })
        .getAttribute('href');
      expect(href, path).toBe(
        link === 'Open in your calendar'
          ? `${base.replace('http:', 'webcal:')}${path}`
          : `feed:${base}${path}`,
      );
      expect(await axeHere(page), path).toEqual([]);
    }
    await page.goto(`${base}/imprint/feed.json`);
    expect(await page.locator('main').innerText()).toContain('Feeds should read like pages.');
    await ctx.close();
  });
});

describe('a feed reader', () => {
  it('gets each Atom feed as Atom, parsing as XML, with Vary: Accept', async () => {
    for (const path of ATOM()) {
      const res = await raw(path, READER);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('application/atom+xml; charset=utf-8');
      expect(String(res.headers.vary), path).toMatch(/Accept/);
      expect(parsesAsXml(res.body), path).toBe(true);
      // A client naming nothing, and one asking for anything, are readers too.
      expect((await raw(path)).headers['content-type'], path).toMatch(/^application\/atom\+xml/);
      expect((await raw(path, { accept: '*/*' })).headers['content-type'], path).toMatch(/atom\+xml/);
      // HTML asked for without a navigation (a script's fetch) still gets the feed.
      const fetched = await raw(path, { accept: 'text/html', 'sec-fetch-dest': 'empty' });
      expect(fetched.headers['content-type'], path).toMatch(/atom\+xml/);
    }
  });

  it('gets the calendar and JSON feeds in their own types', async () => {
    const ics = await raw('/almanac.ics', { accept: 'text/calendar, */*' });
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(ics.body.startsWith('BEGIN:VCALENDAR')).toBe(true);
    const json = await raw('/imprint/feed.json', { accept: 'application/feed+json, */*' });
    expect(json.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    expect(json.json().version).toBe('https://jsonfeed.org/version/1.1');
    expect(String(json.headers.vary)).toMatch(/Accept/);
  });
});

describe('pages that offer a feed', () => {
  it('show the subscribe panel, whose copy button copies the address', async () => {
    // These pages at 390 px signed out are sweep.test.ts's: axe runs on them there, not twice.
    const ctx = await e2e.context({ width: 390, clipboard: true, axe: false });
    const page = await ctx.newPage();
    for (const [path, feeds] of [
      ['/almanac', ['/almanac.ics', '/almanac.xml', '/streaks.xml']],
      ['/verdicts', ['/verdicts.xml', '/reversals.xml']],
      ['/chronicle', ['/feed/pulse']],
      ['/mind', ['/mind/feed.xml']],
      ['/imprint', ['/imprint/feed.json']],
      ['/collaborate', ['/collaborate/feed.json']],
      ['/witness', ['/witness/feed.xml']],
      [`/receipt/${receiptId}`, [`/receipt/${receiptId}/feed.xml`]],
    ] as const) {
      await page.goto(`${base}${path}`);
      const addresses = await page
        .locator('section.subscribe input')
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      expect(addresses, path).toEqual(feeds.map((f) => `${base}${f}`));
    }
    await page.goto(`${base}/almanac`);
    await shot(page, 'almanac-subscribe');
    const calendar = page.locator('section.subscribe[data-subscribe="calendar"]');
    expect(await calendar.getByRole('link', { name: 'Open in your calendar' }).getAttribute('href')).toBe(
      `${base.replace('http:', 'webcal:')}/almanac.ics`,
    );
    await calendar.getByRole('button', { name: /Copy the address/ }).click();
    const copied = await until('the address on the clipboard', async () => {
      const text = await page.evaluate(() => navigator.clipboard.readText());
      return text ? text : undefined;
    });
    expect(copied).toBe(`${base}/almanac.ics`);
    await ctx.close();
  });

  it('show a private subscription address on /sovereign in the same panel', async () => {
    const ctx = await context(person);
    const page = await ctx.newPage();
    await page.goto(`${base}/sovereign`);
    await page.getByRole('button', { name: 'Make a subscription address' }).click();
    const calendar = page.locator('section.subscribe[data-subscribe="calendar"]');
    await calendar.waitFor();
    const address = await calendar.locator('input').inputValue();
    expect(address).toMatch(new RegExp(`^${base}/sovereign/due\\.ics\\?token=`));
    expect(await calendar.getByRole('link', { name: 'Open in your calendar' }).getAttribute('href')).toBe(
      address.replace('http:', 'webcal:'),
    );
    expect(await page.locator('section.subscribe[data-subscribe="atom"] input').inputValue()).toMatch(
      /\/sovereign\/due\.xml\?token=/,
    );
    expect(await axeHere(page)).toEqual([]);
    await shot(page, 'sovereign-subscribe');
    // The address works in a reader with no session.
    const path = new URL(address).pathname + new URL(address).search;
    expect((await raw(path, { accept: 'text/calendar' })).headers['content-type']).toMatch(/text\/calendar/);
    await ctx.close();
  });
});
