/**
 * A sovereign who governs, in real Chromium at 1280 and 390 px: proposes an article on /constitution,
 * sees a second sovereign's cosign move its progress on the front page, records a prophecy on
 * /prophecy and files an order on /orders. Every page it visits is axe-clean, never scrolls sideways,
 * and is screenshotted into test/.artifacts/e2e/ (gitignored); then Lighthouse (as
 * test/e2e/lighthouse.test.ts runs it) scores each of those pages at least 95 in accessibility, best
 * practices and SEO, once per page. Kept apart from journey.test.ts (the newcomer's) so each stays one story.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clean, expectLighthouse, startE2E, WIDTHS, type E2E } from '../helpers/e2e.ts';
import { signedInSovereign } from '../helpers/identity.ts';

const VISITED = ['/', '/constitution', '/prophecy', '/orders'];

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
}, 120_000);

afterAll(async () => e?.close());

/** Opens `path`: an HTML answer, axe 0, no sideways scroll, a full-page screenshot kept. */
async function visit(page: Page, path: string, shot: string) {
  const response = await page.goto(`${e.base}${path}`, { waitUntil: 'load' });
  expect(response?.status(), path).toBe(200);
  await clean(page, shot);
}

describe.each(WIDTHS)('a sovereign who governs, at %i px', (width) => {
  it('proposes, sees a cosign counted, forecasts and files an order', async () => {
    const title = `Receipts are kept for ten years (${width})`;
    const proposer = await signedInSovereign(e.t.app, { callsign: `Heron${width}`, governance: true });
    const cosigner = await signedInSovereign(e.t.app, { callsign: `Otter${width}`, governance: true });
    const page = await e.open({ width, as: proposer });

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
    const second = await e.open({ width, as: cosigner });
    await second.goto(`${e.base}/constitution`);
    await second.getByRole('button', { name: `Cosign “${title}”` }).click();
    await second.waitForLoadState('load');
    await second.context().close();

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
    await page.context().close();
  }, 180_000);
});

describe('Lighthouse on the pages the governing journey visits', () => {
  // `/` is audited by lighthouse.test.ts; Lighthouse is slow, so each page is audited once.
  it('scores each at least 95 in accessibility, best practices and SEO, with no render-blocking script or shift', async () => {
    await expectLighthouse(VISITED.filter((path) => path !== '/').map((path) => `${e.base}${path}`));
  }, 600_000);
});
