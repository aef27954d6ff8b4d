/**
 * The built site in a real browser: a Fastify server using mountSite on an ephemeral port, headless
 * Chromium loading prerendered pages. Checks the title, that the hashed stylesheet and font really
 * apply, that nothing logs an error, the theme cookie, and axe-core (no serious or critical issues).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountSite } from '../../api/site/mount.ts';
import { AXE_INIT, axeViolations, launchBrowser } from '../helpers/browser.ts';

let app: FastifyInstance;
let base: string;
let browser: Browser;

beforeAll(async () => {
  app = Fastify();
  await mountSite(app, { pageRoutes: true });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function openPage(
  path: string,
  options: { colorScheme?: 'light' | 'dark'; cookie?: string; axe?: boolean } = {},
) {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? 'light' });
  // An init script, as test/helpers/e2e.ts: a script tag of axe-core's 650 KB costs more per page.
  if (options.axe) await context.addInitScript({ content: AXE_INIT });
  if (options.cookie) {
    const [name, value] = options.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);
  }
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  return { page, context, response, problems };
}

describe('prerendered pages in Chromium', () => {
  it('/lexicon: title, stylesheet and font applied, no console errors', async () => {
    const { page, context, response, problems } = await openPage('/lexicon');
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Lexicon · civitas');

    const styles = await page.evaluate(() => {
      const body = getComputedStyle(document.body);
      const skip = getComputedStyle(document.querySelector('.skip-link')!);
      return {
        background: body.backgroundColor,
        fontFamily: body.fontFamily,
        skipTop: skip.top,
        interLoaded: document.fonts.check('16px Inter'),
        sheets: [...document.styleSheets].map((s) => s.href),
      };
    });
    expect(styles.sheets).toHaveLength(1);
    expect(styles.sheets[0]).toMatch(/\/theme\.[\w-]+\.css$/);
    expect(styles.background).toBe('rgb(247, 245, 240)');
    expect(styles.fontFamily).toMatch(/^Inter\b/);
    expect(styles.interLoaded).toBe(true);
    expect(parseFloat(styles.skipTop)).toBeLessThan(0); // skip link hidden until focused

    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({
      text: document.activeElement?.textContent,
      top: getComputedStyle(document.activeElement!).top,
    }));
    expect(focused.text).toBe('Skip to content');
    expect(parseFloat(focused.top)).toBeGreaterThan(0);

    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(['/lexicon', '/developers', '/legal', '/changelog'])(
    '%s has no serious or critical axe violations (light and dark)',
    async (path) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, context, problems } = await openPage(path, { colorScheme, axe: true });
        const all = await axeViolations(page);
        if (process.env.AXE_VERBOSE) console.log(path, colorScheme, JSON.stringify(all));
        const violations = all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(violations, `${path} (${colorScheme}): ${JSON.stringify(violations, null, 2)}`).toEqual([]);
        expect(problems).toEqual([]);
        await context.close();
      }
    },
  );

  it('the civitas_theme cookie overrides the system colour scheme', async () => {
    const { page, context } = await openPage('/developers', {
      colorScheme: 'light',
      cookie: 'civitas_theme=dark',
    });
    const state = await page.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      background: getComputedStyle(document.body).backgroundColor,
      pressed: document.querySelector('button[value="dark"]')?.getAttribute('aria-pressed'),
    }));
    expect(state).toEqual({ theme: 'dark', background: 'rgb(19, 21, 23)', pressed: 'true' });
    await context.close();
  });
});
