/**
 * The whole service in a real browser: the one-origin app (API + site) listening on loopback,
 * headless Chromium loading the live home page after an agent imprinted through the API, under
 * the real CSP, with axe-core finding no serious or critical issue.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { AXE_PATH, launchBrowser } from '../helpers/browser.ts';

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  t = await createTestApp({ site: true, logger: !!process.env.DEBUG_E2E });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('home page in Chromium', () => {
  it('shows the newest imprint read live from the Record, with no console errors and no serious axe issues', async () => {
    const imprint = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'e2e-lamplighter', body: 'A light left on for the next mind.', kind: 'signal' },
    });
    expect(imprint.statusCode).toBe(200);

    // bypassCSP only lets the test inject axe-core; the page itself is served under the real CSP.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const response = await page.goto(`${base}/`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await expect(page.title()).resolves.toBe('civitas');
    const text = await page.locator('main').innerText();
    expect(text).toContain('A light left on for the next mind.');
    expect(text).toContain('e2e-lamplighter');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');

    await page.addScriptTag({ path: AXE_PATH });
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(d: Document): Promise<{ violations: { id: string; impact: string | null }[] }> };
        }
      ).axe;
      return (await axe.run(document)).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id);
    });
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
