/**
 * Issue 10 point 10: every feed is valid in its own format, checked with real libraries.
 * - Atom: parsed by a real XML parser (@xmldom/xmldom, errors fatal), then RFC 4287's MUST rules
 *   checked on the namespaced DOM (no full Atom validator exists on npm; the RFC's schema is
 *   RELAX NG compact, which libxml2 cannot read).
 * - JSON Feed: the 1.1 spec's MUST rules as a JSON Schema, validated with ajv (+ ajv-formats).
 * - iCalendar: parsed by ical.js, with RFC 5545's required properties checked.
 */
import { readFileSync } from 'node:fs';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { PUBLISHED_ROUTES } from '../../../shared/registry/index.ts';
import { requests } from '../../helpers/http.ts';

const ATOM = 'http://www.w3.org/2005/Atom';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let t: TestApp;
let ada: TestSovereign;
let receiptId: string;
beforeAll(async () => {
  t = await createTestApp();
  ada = await signedInSovereign(t.app);
  const first = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'feed-agent', body: 'a thought for the feeds' },
  });
  receiptId = first.json().receipt_id;
  await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'feed-agent', body: 'what is due?', kind: 'question' },
    headers: { 'x-civitas-continuity': first.json().continuity_secret },
  });
  const prophecy = await t.app.inject({
    method: 'POST',
    url: '/sovereign/prophecy',
    headers: { cookie: ada.cookie },
    payload: { metric: 'humans', comparator: 'gte', threshold: 1, probability: 0.7, due_in_days: 2 },
  });
  expect(prophecy.statusCode, prophecy.body).toBe(200);
});
afterAll(async () => t?.close());

const FEEDS = PUBLISHED_ROUTES.filter((r) => r.kind === 'feed').map((r) => r.path);
const concrete = (path: string) => path.replace('{id}', receiptId);
const { raw } = requests(() => t.app);
const fetchFeed = (path: string) => raw(concrete(path), { cookie: ada.cookie });

function children(parent: Element, name: string): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (
      node.nodeType === 1 &&
      (node as Element).namespaceURI === ATOM &&
      (node as Element).localName === name
    )
      out.push(node as Element);
  }
  return out;
}
const text = (el: Element) => (el.textContent ?? '').trim();

/** RFC 4287's MUST rules for a feed document; returns every violation found. */
function atomViolations(xml: string, now: Date): string[] {
  const problems: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, 'application/xml');
  const feed = doc.documentElement!;
  if (feed.namespaceURI !== ATOM || feed.localName !== 'feed')
    return [`root is {${feed.namespaceURI}}${feed.localName}, not atom:feed`];
  const once = (el: Element, name: string, where: string) => {
    const found = children(el, name);
    if (found.length !== 1) problems.push(`${where}: ${found.length} atom:${name} (exactly one required)`);
    return found[0];
  };
  const checkDate = (el: Element | undefined, where: string) => {
    if (!el) return;
    const value = text(el);
    if (!RFC3339.test(value)) problems.push(`${where}: updated "${value}" is not an RFC 3339 date-time`);
    else if (new Date(value).getTime() > now.getTime())
      problems.push(`${where}: updated ${value} is in the future`);
  };
  const checkAuthors = (el: Element, where: string) => {
    for (const author of children(el, 'author'))
      if (children(author, 'name').length !== 1)
        problems.push(`${where}: an atom:author without exactly one atom:name`);
  };
  const checkId = (el: Element | undefined, where: string) => {
    if (el && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(text(el)))
      problems.push(`${where}: id "${text(el)}" is not an absolute IRI`);
  };
  checkId(once(feed, 'id', 'feed'), 'feed');
  once(feed, 'title', 'feed');
  checkDate(once(feed, 'updated', 'feed'), 'feed');
  checkAuthors(feed, 'feed');
  const feedHasAuthor = children(feed, 'author').length > 0;
  children(feed, 'entry').forEach((entry, i) => {
    const where = `entry ${i + 1}`;
    checkId(once(entry, 'id', where), where);
    once(entry, 'title', where);
    checkDate(once(entry, 'updated', where), where);
    checkAuthors(entry, where);
    if (!feedHasAuthor && children(entry, 'author').length === 0 && children(entry, 'source').length === 0) {
      problems.push(`${where}: no atom:author, and the feed has none either (4.1.1)`);
    }
    const alternate = children(entry, 'link').some(
      (l) => (l.getAttribute('rel') || 'alternate') === 'alternate',
    );
    if (children(entry, 'content').length === 0 && !alternate)
      problems.push(`${where}: neither atom:content nor an alternate atom:link (4.1.2)`);
  });
  return problems;
}

describe('every feed is valid in its format', () => {
  it('covers every feed of the registry', () => {
    expect(FEEDS.length).toBeGreaterThanOrEqual(12);
    for (const p of [
      '/feed/pulse',
      '/mind/feed.xml',
      '/receipt/{id}/feed.xml',
      '/imprint/feed.json',
      '/almanac.ics',
    ])
      expect(FEEDS).toContain(p);
  });

  it('every Atom feed is well-formed XML that keeps RFC 4287 (feed-level author, nothing updated in the future)', async () => {
    const atom = FEEDS.filter((p) => !p.endsWith('.json') && !p.endsWith('.ics'));
    for (const path of atom) {
      const res = await fetchFeed(path);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(String(res.headers['content-type']), path).toContain('application/atom+xml');
      expect(atomViolations(res.body, t.clock.now()), path).toEqual([]);
    }
  });

  it('the pulse, mind and receipt feeds name civitas as their author, and the pulse of today is not dated ahead', async () => {
    for (const path of ['/feed/pulse', '/mind/feed.xml', '/receipt/{id}/feed.xml']) {
      const body = (await fetchFeed(path)).body;
      expect(body, path).toMatch(/<feed[^>]*>[\s\S]*<author>\s*<name>civitas<\/name>/);
    }
    // The test clock stands at noon: the day entry (end of today) would be 12 hours ahead.
    const pulse = (await fetchFeed('/feed/pulse')).body;
    expect(pulse).toContain('vital signs');
  });

  it('the validator itself refuses what RFC 4287 forbids', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const entry = (updated: string) =>
      `<entry><id>urn:x:1</id><title>t</title><updated>${updated}</updated><link href="https://x.test/1"/></entry>`;
    const feed = (author: string, body: string) =>
      `<feed xmlns="${ATOM}"><id>urn:x</id><title>x</title><updated>2025-01-01T00:00:00Z</updated>${author}${body}</feed>`;
    expect(
      atomViolations(feed('<author><name>civitas</name></author>', entry('2025-06-01T00:00:00Z')), now),
    ).toEqual([]);
    expect(atomViolations(feed('', entry('2025-06-01T00:00:00Z')), now).join()).toContain('no atom:author');
    expect(
      atomViolations(feed('<author><name>c</name></author>', entry('2027-06-01T00:00:00Z')), now).join(),
    ).toContain('in the future');
    expect(() => atomViolations('<feed xmlns="http://www.w3.org/2005/Atom"><id>x</feed>', now)).toThrow();
  });

  it('every JSON Feed validates against the JSON Feed 1.1 schema (ajv)', async () => {
    const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(new URL('../../fixtures/jsonfeed-1.1.schema.json', import.meta.url), 'utf8')),
    );
    for (const path of FEEDS.filter((p) => p.endsWith('.json'))) {
      const res = await fetchFeed(path);
      expect(res.statusCode, path).toBe(200);
      expect(String(res.headers['content-type']), path).toContain('application/feed+json');
      const body = res.json();
      expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(body.items.length, path).toBeGreaterThan(0);
    }
    expect(validate({ version: 'https://jsonfeed.org/version/1.1', title: 'x', items: [{ id: '1' }] })).toBe(
      false,
    );
  });

  it('every iCalendar feed parses with ical.js and carries RFC 5545 required properties', async () => {
    for (const path of FEEDS.filter((p) => p.endsWith('.ics'))) {
      const res = await fetchFeed(path);
      expect(res.statusCode, path).toBe(200);
      expect(String(res.headers['content-type']), path).toContain('text/calendar');
      const calendar = new ICAL.Component(ICAL.parse(res.body));
      expect(calendar.name, path).toBe('vcalendar');
      expect(calendar.getFirstPropertyValue('version'), path).toBe('2.0');
      expect(calendar.getFirstPropertyValue('prodid'), path).toBeTruthy();
      for (const event of calendar.getAllSubcomponents('vevent')) {
        for (const prop of ['uid', 'dtstamp', 'dtstart'])
          expect(event.getFirstPropertyValue(prop), `${path} ${prop}`).toBeTruthy();
      }
    }
    const due = new ICAL.Component(ICAL.parse((await fetchFeed('/sovereign/due.ics')).body));
    expect(due.getAllSubcomponents('vevent').length).toBeGreaterThan(0);
  });
});
