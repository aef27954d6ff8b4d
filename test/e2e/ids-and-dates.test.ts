/**
 * Ids and dates as people read them, in real Chromium: on every page a signed-in person can open,
 * after imprints, an order, a prophecy, a pact and a proposal exist, no exact ISO instant shows
 * outside a `<time>` (and none inside one: it reads "27 November 2026 at 14:05 UTC"), and no row id
 * shows whole (`rcpt_01M8…D3W3`, the full id in its title and for screen readers). A short id's copy
 * button copies the whole id. Feeds opened in a browser read the same way. The receipt page keeps its technical detail under "For developers".
 */
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeHere, shot, startE2E, type E2E } from '../helpers/e2e.ts';
import { requests } from '../helpers/http.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { sweepPaths } from '../helpers/sweep.ts';
import { until } from '../helpers/wait.ts';

let e2e: E2E;
let base: string;
let me: TestSovereign;
let receipt: string;
const { post } = requests(() => e2e.t.app);

beforeAll(async () => {
  e2e = await startE2E();
  base = e2e.base;
  const t = e2e.t;
  me = await signedInSovereign(t.app, { callsign: 'Reader', governance: true });
  receipt = (await e2e.post('/sovereign/imprint', { body: 'Dates in words.', kind: 'thought' }, me))
    .receipt_id;
  await post('/api/agent/imprint', { agent: 'ids-lamplighter', body: 'A light.', kind: 'signal' });
  const writes: [string, object][] = [
    ['/sovereign/order', { title: 'Fix the lamp', body: 'The lamp flickers', kind: 'bug' }],
    [
      '/sovereign/prophecy',
      { metric: 'agents', comparator: 'gte', threshold: 5, probability: 0.7, due_in_days: 3 },
    ],
    ['/sovereign/pact', { title: 'Keep the lamp lit', stake: 2, due_in_days: 3 }],
    ['/api/constitution/propose', { title: 'A new axiom', text: 'Be kind', amends: 'axiom-3' }],
  ];
  for (const [url, payload] of writes) await e2e.post(url, payload, me);
}, 180_000);

afterAll(async () => {
  await e2e?.close();
});

async function signedIn(): Promise<BrowserContext> {
  return e2e.context({ width: 1280, as: me });
}

/** Visible text that prints an exact instant or a whole row id, and `<time>`s that read as ISO. */
function rawIdsAndInstants(): string[] {
  const iso = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
  const id = /\b[a-z]{2,8}_[0-9A-HJKMNP-TV-Z]{26}\b/;
  const found: string[] = [];
  const exact = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
  for (const time of document.querySelectorAll('time')) {
    if (iso.test(time.textContent ?? '')) found.push(`<time> reads ${time.textContent?.trim()}`);
    if (!exact.test(time.getAttribute('datetime') ?? ''))
      found.push(`<time datetime="${time.getAttribute('datetime')}">`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || !element.checkVisibility()) continue;
    // Technical detail for developers, code samples, and the short id's own screen-reader copy.
    if (
      element.closest(
        'time, script, style, pre, .short-id, .visually-hidden, details:not([open]), details.developer',
      )
    )
      continue;
    const text = node.textContent ?? '';
    if (iso.test(text) || id.test(text)) found.push(`${element.tagName}: ${text.trim().slice(0, 100)}`);
  }
  return found;
}

describe('ids and dates site-wide', () => {
  // Every page, like a pass of the sweep (sweep.test.ts), so its limit: a loaded host takes minutes.
  it('no page shows a raw instant or a whole row id', async () => {
    // No axe on this walk: its pages under their own CSP, without axe-core compiled into each.
    const context = await e2e.context({ width: 1280, as: me, axe: false });
    const page = await context.newPage();
    const found: string[] = [];
    const feeds = [
      '/feed/pulse',
      '/almanac.xml',
      '/almanac.ics',
      '/imprint/feed.json',
      `/receipt/${receipt}/feed.xml`,
    ];
    for (const path of sweepPaths([`/receipt/${receipt}`, `/ledger/${receipt}`, ...feeds])) {
      const response = await page.goto(`${base}${path}`);
      if (!response?.headers()['content-type']?.includes('text/html')) continue;
      for (const hit of await page.evaluate(rawIdsAndInstants)) found.push(`${path} ${hit}`);
    }
    expect(found).toEqual([]);
    await context.close();
  }, 900_000);

  it('a short id carries the whole id and its copy button copies it', async () => {
    const context = await e2e.context({ width: 1280, as: me, clipboard: true });
    const page = await context.newPage();
    await page.goto(`${base}/ledger`);
    const row = page.locator('.short-id').filter({ has: page.locator(`[title="${receipt}"]`) });
    expect(await row.locator('[aria-hidden="true"]').innerText()).toBe(
      `rcpt_${receipt.slice(5, 9)}…${receipt.slice(-4)}`,
    );
    expect(await row.locator('.visually-hidden').first().textContent()).toBe(receipt);
    await row.getByRole('button', { name: 'Copy the receipt id' }).click();
    const copied = await until('the id on the clipboard', async () => {
      const text = await page.evaluate(() => navigator.clipboard.readText());
      return text ? text : undefined;
    });
    expect(copied).toBe(receipt);
    for (const path of ['/ledger', `/ledger/${receipt}`, '/almanac', '/prophecy', '/sovereign', '/mind']) {
      await page.goto(`${base}${path}`);
      expect(await axeHere(page), path).toEqual([]);
    }
    await context.close();
  });

  it('the receipt card shows what it vouches for; the technical detail waits under For developers', async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${base}/receipt/${receipt}`);
    const card = page.locator('.receipt-card');
    expect(await card.getByTestId('vouched-words').innerText()).toBe('Dates in words.');
    expect(await card.locator('.status-badge').innerText()).toContain('Verified');
    expect(await card.getByRole('button', { name: 'Copy the receipt id' }).isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Copy the link to share' }).isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: 'How it was verified' }).isVisible()).toBe(true);
    const developer = page.locator('details.developer');
    expect(await developer.getAttribute('open')).toBeNull();
    // Outside the disclosure: no leaf hash, no JSON field or step name, no path of the API.
    const shown = await page.locator('main').innerText();
    expect(shown).not.toMatch(/Leaf hash|leaf_hash|record\.imprint|\/verify\/|inclusion proof/i);
    await developer.locator('summary').click();
    expect(await developer.innerText()).toContain('Leaf hash');
    expect(await axeHere(page)).toEqual([]);
    await shot(page, 'receipt-developer-open');
    await context.close();
  });
});
