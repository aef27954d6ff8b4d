/**
 * A newcomer takes part in one flow, in real Chromium at 1280 and 390 px: the Record offers crossing
 * (no Sovereign ID asked of someone who has none), the key is shown once with copy and download and
 * "Continue" waits for the box saying it was saved, the header names the new Sovereign at once, the
 * first imprint's success is its receipt showing the words, and the ledger's box checks a pasted id.
 * Every page on the way: axe 0 violations, no sideways scroll, no console error.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { AXE_PATH, launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/ports.ts';
import { heldAgentImprint } from '../helpers/builders.ts';
import { axeHere, shot, sidewaysScroll } from '../helpers/look.ts';

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ site: true, config: { origin: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function clean(page: Page, name: string) {
  expect(await axeHere(page), `${name}: axe`).toEqual([]);
  expect(await sidewaysScroll(page), `${name}: sideways scroll`).toBeLessThanOrEqual(0);
  await shot(page, name);
}

describe.each([1280, 390])('a newcomer at %i px', (width) => {
  it('crosses from the Record, leaves a first imprint, meets its receipt with the words and checks it', async () => {
    const context = await browser.newContext({ viewport: { width, height: 844 }, bypassCSP: true });
    await context.addInitScript({ path: AXE_PATH });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    page.on('pageerror', (e) => void problems.push(e.message));

    // Signed out, the Record offers crossing first; the Sovereign ID form is tucked away.
    await page.goto(`${base}/imprint`);
    expect(await page.getByLabel('Sovereign ID').isVisible()).toBe(false);
    await clean(page, `newcomer-1-record-${width}`);
    await page.getByRole('link', { name: 'Cross and leave your first imprint' }).click();
    await page.getByRole('button', { name: 'Cross' }).click();
    await page.waitForLoadState('load');

    // The key once, copy and download; the header already names the new Sovereign.
    const tag = (await page.getByTestId('tag').textContent())?.trim() ?? '';
    const key = (await page.getByTestId('sovereign-key').inputValue()).trim();
    expect(key).toMatch(/^sk_/);
    expect(await page.getByText(key, { exact: true }).count()).toBeLessThanOrEqual(1);
    const header = await page.locator('.signed-in').innerText();
    expect(header).toContain(tag);
    expect(header).not.toContain('Cross');
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await clean(page, `newcomer-2-key-${width}`);

    // "Continue" waits for the person to say the key is saved.
    const onward = page.getByRole('button', { name: 'Continue to your first imprint' });
    await onward.click();
    expect(page.url()).toBe(`${base}/initiate`);
    await page.getByLabel('I have saved my Sovereign Key somewhere safe.').check();
    await onward.click();
    await page.waitForURL(/\/imprint\??#leave$/);

    const words = `My first words here, at ${width} px.`;
    await page.getByLabel('Your imprint').fill(words);
    await page.getByRole('button', { name: 'Leave the imprint' }).click();
    await page.waitForURL(/\/receipt\/rcpt_\w+\?recorded=\d+$/);
    const receiptId = /\/receipt\/(rcpt_\w+)/.exec(page.url())![1];
    expect(await page.getByRole('status').first().innerText()).toMatch(/Your imprint #\d+ is recorded/);
    expect(await page.getByTestId('vouched-words').innerText()).toBe(words);
    expect(await page.locator('.receipt-mark .status-badge').innerText()).toContain('Verified');
    await page.getByRole('button', { name: 'Copy the receipt id' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(receiptId);
    await page.getByRole('button', { name: 'Copy the link to share' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/receipt/${receiptId}`);
    await clean(page, `newcomer-3-receipt-${width}`);

    // Anyone can check it from the ledger: paste the link, land on the verified receipt.
    await page.goto(`${base}/ledger`);
    await clean(page, `newcomer-4-ledger-${width}`);
    await page.getByLabel('Receipt id or link').fill(` ${base}/receipt/${receiptId} `);
    await page.getByRole('button', { name: 'Check it' }).click();
    await page.waitForURL(`${base}/receipt/${receiptId}`);
    expect(await page.locator('.receipt-mark .status-badge').innerText()).toContain('Verified');
    expect(await page.getByTestId('vouched-words').innerText()).toBe(words);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('receipts and the words they vouch for', () => {
  it('never shows a held imprint’s words on its receipt, and says when nothing is pasted', async () => {
    const made = await heldAgentImprint(t.app, 'e2e-spammer', 'Heldword');
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/receipt/${made.receipt_id}`);
    expect(await page.locator('.status-badge').first().innerText()).toContain('Verified');
    expect(await page.locator('main').innerText()).not.toContain('Heldword');
    expect(await page.getByTestId('vouched-words').count()).toBe(0);
    await page.goto(`${base}/ledger?receipt=nothing+here`);
    expect(await page.getByLabel('Receipt id or link').getAttribute('aria-invalid')).toBe('true');
    await page.context().close();
  }, 60_000);
});
