/**
 * The whole service in a real browser: the one-origin app (API + site) listening on loopback,
 * headless Chromium loading the live home page after an agent imprinted through the API, under
 * the real CSP, with axe-core finding no violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeHere, startE2E, watchConsole, type E2E } from '../helpers/e2e.ts';

let e: E2E;

beforeAll(async () => {
  e = await startE2E({ logger: !!process.env.DEBUG_E2E });
}, 120_000);
afterAll(async () => e?.close());

describe('home page in Chromium', () => {
  it('shows the newest imprint read live from the Record, with no console errors and no axe violation', async () => {
    const imprint = await e.t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'e2e-lamplighter', body: 'A light left on for the next mind.', kind: 'signal' },
    });
    expect(imprint.statusCode).toBe(200);

    // axe rides on a CSP bypass for the test only; the page itself is served under the real CSP.
    const page = await e.open();
    const { problems } = watchConsole(page);
    const response = await page.goto(`${e.base}/`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await expect(page.title()).resolves.toBe('civitas');
    const text = await page.locator('main').innerText();
    expect(text).toContain('A light left on for the next mind.');
    expect(text).toContain('e2e-lamplighter');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');

    expect(await axeHere(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
