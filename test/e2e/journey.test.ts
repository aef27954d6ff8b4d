/**
 * A person's journey in real Chromium, at desktop (1280 px) and phone (390 px) widths: crosses from
 * the front page, imprints, fails a form on purpose and finds the words kept, verifies the receipt,
 * signs out (and is told so), returns with the saved key; the header names the signed-in Sovereign on
 * rendered and prerendered pages; the Sovereign Key copies with JavaScript and downloads without it.
 * The one-origin app on loopback.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shot, sidewaysScroll, startE2E, watchConsole, WIDTHS, type E2E } from '../helpers/e2e.ts';

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
}, 120_000);

afterAll(async () => e?.close());

async function noSidewaysScroll(page: Page) {
  expect(await sidewaysScroll(page), page.url()).toBeLessThanOrEqual(0);
}

describe.each(WIDTHS)('the journey at %i px', (width) => {
  it('crosses, imprints, fails a form and keeps its words, verifies a receipt, signs out and returns', async () => {
    const page = await e.open({ width, clipboard: true, axe: false });
    const { problems } = watchConsole(page);

    // The front page's primary action leads to crossing.
    await page.goto(`${e.base}/`);
    await page.getByRole('link', { name: 'Cross — become a Sovereign' }).click();
    await page.waitForURL(`${e.base}/initiate`);
    await page.getByLabel('Callsign').fill(`Wren${width}`);
    await page.getByRole('button', { name: 'Cross' }).click();
    await page.waitForLoadState('load');
    const key = (await page.getByTestId('sovereign-key').textContent())?.trim() ?? '';
    const tag = (await page.getByTestId('tag').textContent())?.trim() ?? '';
    expect(key).toMatch(/^sk_/);
    expect(
      await page.getByRole('link', { name: 'Download the key as a file' }).getAttribute('download'),
    ).toContain(tag);
    // With JavaScript, "Copy the key" puts it on the clipboard.
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await noSidewaysScroll(page);

    // The header says who is signed in: rendered on demand, and filled in on a prerendered page
    // that stays publicly cacheable.
    const prerendered = await page.goto(`${e.base}/privacy`);
    expect(prerendered?.headers()['cache-control']).toContain('public');
    expect(prerendered?.headers()['set-cookie']).toBeUndefined();
    await page.locator('.signed-in', { hasText: tag }).waitFor();
    expect(await page.locator('.signed-in').innerText()).toContain(`Wren${width}`);
    await page.goto(`${e.base}/imprint`);
    expect(await page.locator('.signed-in').innerText()).toContain(tag);
    expect(await page.locator('.signed-in').innerText()).toContain(`Wren${width}`);

    // A reply to an imprint that does not exist fails; the words come back with the error.
    const words = `Words I will not type twice, at ${width} px.`;
    await page.getByLabel('Your imprint').fill(words);
    await page.getByLabel('Kind').selectOption('question');
    await page.getByLabel(/In reply to imprint/).fill('999');
    await page.getByRole('button', { name: 'Leave the imprint' }).click();
    await page.waitForURL(`${e.base}/imprint`);
    expect(page.url()).toBe(`${e.base}/imprint`);
    expect(await page.getByRole('alert').first().innerText()).not.toBe('');
    expect(await page.getByLabel('Your imprint').inputValue()).toBe(words);
    expect(await page.getByLabel('Kind').inputValue()).toBe('question');
    await noSidewaysScroll(page);

    // Fixed, it is recorded.
    await page.getByLabel(/In reply to imprint/).fill('');
    await page.getByRole('button', { name: 'Leave the imprint' }).click();
    await page.waitForURL(/\/receipt\/rcpt_\w+\?recorded=\d+/);
    expect(await page.getByRole('status').first().innerText()).toMatch(/Your imprint #\d+ is recorded/);

    // Its receipt verifies, reached from the Record too.
    await page.goto(`${e.base}/imprint`);
    const item = page.locator('.imprint-list li', { hasText: words });
    await item.getByRole('link', { name: 'receipt' }).click();
    await page.waitForURL(/\/receipt\//);
    expect(await page.locator('.status-badge').innerText()).toContain('Verified');
    await noSidewaysScroll(page);

    // Sign out, be told so, return with the key.
    await page.goto(`${e.base}/sovereign`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${e.base}/return?signed_out=1`);
    expect(await page.getByRole('status').first().innerText()).toContain('You are signed out');
    await page.goto(`${e.base}/privacy`);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.signed-in').innerText()).not.toContain(tag);
    await page.goto(`${e.base}/return`);
    await page.getByLabel('Sovereign Key').fill(key);
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await page.waitForURL(`${e.base}/sovereign`);
    expect(await page.getByTestId('owner-tag').textContent()).toBe(tag);
    await shot(page, `journey-${width}-returned`);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);
});

describe('the Sovereign Key without JavaScript', () => {
  it('downloads as a file from the crossing page; no copy button is offered', async () => {
    const page = await e.open({ javaScriptEnabled: false, acceptDownloads: true, axe: false });
    await page.goto(`${e.base}/initiate`);
    await page.getByRole('button', { name: 'Cross' }).click();
    await page.waitForLoadState('load');
    const key = (await page.getByTestId('sovereign-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^sk_/);
    expect(await page.getByRole('button', { name: 'Copy the key' }).isVisible()).toBe(false);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the key as a file' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^civitas-sovereign-key-.+\.txt$/);
    expect(await readFile(await download.path(), 'utf8')).toContain(key);
    await page.context().close();
  }, 60_000);
});
