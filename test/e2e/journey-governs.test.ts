/**
 * A sovereign who governs, in real Chromium at 1280 and 390 px: proposes an article on /constitution,
 * sees a second sovereign's cosign move its progress on the front page, records a prophecy on
 * /prophecy and files an order on /orders. Every page it visits is axe-clean, never scrolls sideways,
 * and is screenshotted into test/.artifacts/journeys/ (gitignored); then Lighthouse (as
 * test/e2e/lighthouse.test.ts runs it) scores each of those pages at least 95 in accessibility, best
 * practices and SEO. Kept apart from journey.test.ts (the newcomer's) so each stays one story.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../api/plugins/session.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { audit, launchLighthouseChrome } from '../helpers/lighthouse.ts';
import { freePort } from '../helpers/ports.ts';
import { inspect, phoneContext } from '../helpers/sweep.ts';

const ARTIFACTS = new URL('../.artifacts/journeys/', import.meta.url).pathname;
const VISITED = ['/', '/constitution', '/prophecy', '/orders'];

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ site: true, config: { origin: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signedIn(width: number, who: TestSovereign): Promise<BrowserContext> {
  const context = await phoneContext(browser, width);
  await context.addCookies([
    { name: SESSION_COOKIE, value: who.cookie.split('=')[1], url: base, httpOnly: true, sameSite: 'Lax' },
  ]);
  return context;
}

/** Opens `path`, checks axe and overflow, and keeps a full-page screenshot. */
async function visit(page: Page, path: string, shot: string) {
  const found = await inspect(page, base, path);
  expect(found.status, path).toBe(200);
  expect(found.axe, `${path}: axe`).toEqual([]);
  expect(found.overflow, `${path}: sideways scroll`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${ARTIFACTS}${shot}.png`, fullPage: true });
}

describe.each([1280, 390])('a sovereign who governs, at %i px', (width) => {
  it('proposes, sees a cosign counted, forecasts and files an order', async () => {
    const title = `Receipts are kept for ten years (${width})`;
    const proposer = await signedInSovereign(t.app, { callsign: `Heron${width}`, governance: true });
    const cosigner = await signedInSovereign(t.app, { callsign: `Otter${width}`, governance: true });
    const context = await signedIn(width, proposer);
    const page = await context.newPage();

    // Propose.
    await visit(page, '/constitution', `governs-${width}-1-constitution`);
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page
      .getByLabel('Text', { exact: true })
      .fill('Every receipt stays verifiable for at least ten years.');
    await page.getByRole('button', { name: 'Propose' }).click();
    await page.waitForURL(/\/constitution/);
    await expect.poll(() => page.getByRole('heading', { name: title }).count()).toBeGreaterThan(0);

    // A second sovereign cosigns from the same page.
    const other = await signedIn(width, cosigner);
    const second = await other.newPage();
    await second.goto(`${base}/constitution`);
    await second.getByRole('button', { name: `Cosign “${title}”` }).click();
    await second.waitForLoadState('load');
    await other.close();

    // The front page shows the proposal with its cosign progress.
    await visit(page, '/', `governs-${width}-2-home`);
    const card = page.locator('li[aria-labelledby="do-govern"]');
    await expect.poll(() => card.textContent()).toContain(title);
    expect(await card.textContent()).toContain('1 of 3 cosigns');

    // Forecast.
    await visit(page, '/prophecy', `governs-${width}-3-prophecy`);
    await page.getByLabel('Value', { exact: true }).fill('1');
    await page.getByLabel('Probability', { exact: true }).fill('0.8');
    await page.getByLabel('Due in how many days', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Record the prophecy' }).click();
    await page.waitForLoadState('load');
    expect(new URL(page.url()).pathname).toBe('/prophecy');

    // Ask for a change.
    await visit(page, '/orders', `governs-${width}-4-orders`);
    await page
      .getByLabel('What should change', { exact: true })
      .fill(`A dark theme for night readers (${width})`);
    await page.getByRole('button', { name: 'File the order' }).click();
    await page.waitForLoadState('load');
    await visit(page, '/orders', `governs-${width}-5-order-filed`);
    expect(await page.getByText(`A dark theme for night readers (${width})`).count()).toBeGreaterThan(0);
    await context.close();
  }, 180_000);
});

describe('Lighthouse on the pages the governing journey visits', () => {
  let chrome: Awaited<ReturnType<typeof launchLighthouseChrome>>;
  beforeAll(async () => {
    for (const path of VISITED) await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
    chrome = await launchLighthouseChrome();
  }, 60_000);
  afterAll(() => chrome?.kill());

  it.each(VISITED)(
    '%s: at least 95 in accessibility, best practices and SEO',
    async (path) => {
      const { scores, failing } = await audit(chrome.port, `${base}${path}`);
      for (const category of ['accessibility', 'best-practices', 'seo'] as const)
        expect(scores[category], `${path} ${category}: ${JSON.stringify(failing)}`).toBeGreaterThanOrEqual(
          95,
        );
    },
    120_000,
  );
});
