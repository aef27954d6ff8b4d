/**
 * The human identity ceremony in a real browser (headless Chromium) against the whole app on a
 * real socket, with the built site: cross at /initiate, keep the key shown once, sign out, return
 * with the saved key, and see the owner view. The forms work without JavaScript (none is used).
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { AXE_PATH, launchBrowser } from '../helpers/browser.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/ports.ts';

let app: FastifyInstance;
let database: TestDatabase;
let base: string;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await buildApp({
    db: database.db,
    site: true,
    config: { origin: base, rateReadsPerMin: 100_000, rateWritesPerMin: 100_000, dataDir: '/nonexistent' },
  });
  await app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.drop();
});

async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: object,
          ): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.nodes.length})`);
  });
}

describe('identity ceremony in Chromium', () => {
  it('crosses at /initiate, signs out, returns with the saved key and sees its owner view', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });

    // Cross.
    await page.goto(`${base}/initiate`);
    expect(await seriousAxeViolationsWithJs(page)).toEqual([]);
    await page.getByLabel('Callsign').fill('Wren');
    await page.getByRole('button', { name: 'Cross' }).click();
    await page.waitForLoadState('load');
    const key = (await page.getByTestId('sovereign-key').textContent())?.trim() ?? '';
    const tag = (await page.getByTestId('tag').textContent())?.trim() ?? '';
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(tag).toMatch(/^[0-9a-f]{4}$/);
    const cookies = await context.cookies(base);
    const session = cookies.find((c) => c.name === 'civitas_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');

    // The owner view, then sign out from it.
    await page.getByLabel('I have saved my Sovereign Key somewhere safe.').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/sovereign\??$/);
    expect(await page.getByTestId('owner-tag').textContent()).toBe(tag);
    expect(await page.content()).not.toContain(key);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/return?signed_out=1`);
    expect(await page.getByRole('status').textContent()).toContain('You are signed out');
    expect((await context.cookies(base)).find((c) => c.name === 'civitas_session')).toBeUndefined();

    // Signed out, the owner view sends the browser to /return and back.
    await page.goto(`${base}/sovereign`);
    expect(page.url()).toBe(`${base}/return?return_to=%2Fsovereign`);

    // A wrong key is refused with a message; the saved key opens the identity again.
    await page.getByLabel('Sovereign Key').fill('sk_' + 'x'.repeat(43));
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toContain('does not open any identity');
    await page.getByLabel('Sovereign Key').fill(key);
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await page.waitForURL(`${base}/sovereign`);
    expect(await page.getByTestId('owner-tag').textContent()).toBe(tag);
    expect(await page.locator('h1').textContent()).toContain(tag);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the owner pages are accessible (axe: no serious or critical issues)', async () => {
    const context = await browser.newContext({ bypassCSP: true }); // only so axe can be injected
    const page = await context.newPage();
    await page.goto(`${base}/initiate`);
    await page.getByRole('button', { name: 'Cross' }).click();
    await page.waitForLoadState('load');
    for (const path of ['/sovereign', '/identity', '/settings/data', '/return', '/begin']) {
      await page.goto(`${base}${path}`);
      expect(await seriousAxeViolations(page), path).toEqual([]);
    }
    await context.close();
  });
});

/** axe needs JavaScript; the ceremony page itself is checked in a JavaScript-enabled twin. */
async function seriousAxeViolationsWithJs(page: Page): Promise<string[]> {
  const context = await browser.newContext({ bypassCSP: true }); // only so axe can be injected
  const twin = await context.newPage();
  await twin.goto(page.url());
  const violations = await seriousAxeViolations(twin);
  await context.close();
  return violations;
}
