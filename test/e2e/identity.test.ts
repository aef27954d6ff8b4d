/**
 * The human identity ceremony in a real browser (headless Chromium) against the whole app on a
 * real socket, with the built site: cross at /initiate, keep the key shown once, sign out, return
 * with the saved key, and see the owner view. The forms work without JavaScript (none is used).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeHere, startE2E, watchConsole, type E2E } from '../helpers/e2e.ts';

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
}, 120_000);

afterAll(async () => e?.close());

describe('identity ceremony in Chromium', () => {
  it('crosses at /initiate, signs out, returns with the saved key and sees its owner view', async () => {
    const page = await e.open({ javaScriptEnabled: false, axe: false });
    const context = page.context();
    const { problems } = watchConsole(page);

    // Cross.
    await page.goto(`${e.base}/initiate`);
    expect(await axeWithJs(page)).toEqual([]);
    await page.getByLabel('Callsign').fill('Wren');
    await page.getByRole('button', { name: 'Cross' }).click();
    await page.waitForLoadState('load');
    const key = (await page.getByTestId('sovereign-key').textContent())?.trim() ?? '';
    const tag = (await page.getByTestId('tag').textContent())?.trim() ?? '';
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(tag).toMatch(/^[0-9a-f]{4}$/);
    const cookies = await context.cookies(e.base);
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
    await page.waitForURL(`${e.base}/return?signed_out=1`);
    expect(await page.getByRole('status').textContent()).toContain('You are signed out');
    expect((await context.cookies(e.base)).find((c) => c.name === 'civitas_session')).toBeUndefined();

    // Signed out, the owner view sends the browser to /return and back.
    await page.goto(`${e.base}/sovereign`);
    expect(page.url()).toBe(`${e.base}/return?return_to=%2Fsovereign`);

    // A wrong key is refused with a message; the saved key opens the identity again.
    await page.getByLabel('Sovereign Key').fill('sk_' + 'x'.repeat(43));
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toContain('does not open any identity');
    await page.getByLabel('Sovereign Key').fill(key);
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await page.waitForURL(`${e.base}/sovereign`);
    expect(await page.getByTestId('owner-tag').textContent()).toBe(tag);
    expect(await page.locator('h1').textContent()).toContain(tag);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the owner pages are accessible (axe: no violation)', async () => {
    const page = await e.open();
    await page.goto(`${e.base}/initiate`);
    await page.getByRole('button', { name: 'Cross' }).click();
    await page.waitForLoadState('load');
    for (const path of ['/sovereign', '/identity', '/settings/data', '/return', '/begin']) {
      await page.goto(`${e.base}${path}`);
      expect(await axeHere(page), path).toEqual([]);
    }
    await page.context().close();
  });
});

/** axe needs JavaScript; the ceremony page itself is checked in a JavaScript-enabled twin. */
async function axeWithJs(page: Page): Promise<string[]> {
  const twin = await e.open();
  await twin.goto(page.url());
  const violations = await axeHere(twin);
  await twin.context().close();
  return violations;
}
