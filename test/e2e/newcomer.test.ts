/**
 * A newcomer takes part in one flow, in real Chromium at 1280 and 390 px: the Record offers crossing
 * (no Sovereign ID asked of someone who has none), the key is shown once with copy and download and
 * "Continue" waits for the box saying it was saved, the header names the new Sovereign at once, the
 * first imprint's success is its receipt showing the words, and the ledger's box checks a pasted id.
 * Every page on the way: axe 0 violations, no sideways scroll, no console error, a screenshot kept;
 * Lighthouse once on the two pages only this journey audits (crossing, the ledger).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldAgentImprint } from '../helpers/builders.ts';
import { clean, expectLighthouse, startE2E, watchConsole, WIDTHS, type E2E } from '../helpers/e2e.ts';

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
}, 120_000);

afterAll(async () => e?.close());

describe.each(WIDTHS)('a newcomer at %i px', (width) => {
  it('crosses from the Record, leaves a first imprint, meets its receipt with the words and checks it', async () => {
    const page = await e.open({ width, clipboard: true });
    const { problems } = watchConsole(page);

    // Signed out, the Record offers crossing first; the Sovereign ID form is tucked away.
    await page.goto(`${e.base}/imprint`);
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
    expect(page.url()).toBe(`${e.base}/initiate`);
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
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${e.base}/receipt/${receiptId}`);
    await clean(page, `newcomer-3-receipt-${width}`);

    // Anyone can check it from the ledger: paste the link, land on the verified receipt.
    await page.goto(`${e.base}/ledger`);
    await clean(page, `newcomer-4-ledger-${width}`);
    await page.getByLabel('Receipt id or link').fill(` ${e.base}/receipt/${receiptId} `);
    await page.getByRole('button', { name: 'Check it' }).click();
    await page.waitForURL(`${e.base}/receipt/${receiptId}`);
    expect(await page.locator('.receipt-mark .status-badge').innerText()).toContain('Verified');
    expect(await page.getByTestId('vouched-words').innerText()).toBe(words);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);
});

describe('receipts and the words they vouch for', () => {
  it('never shows a held imprint’s words on its receipt, and says when nothing is pasted', async () => {
    const made = await heldAgentImprint(e.t.app, 'e2e-spammer', 'Heldword');
    const page = await e.open();
    await page.goto(`${e.base}/receipt/${made.receipt_id}`);
    expect(await page.locator('.status-badge').first().innerText()).toContain('Verified');
    expect(await page.locator('main').innerText()).not.toContain('Heldword');
    expect(await page.getByTestId('vouched-words').count()).toBe(0);
    await page.goto(`${e.base}/ledger?receipt=nothing+here`);
    expect(await page.getByLabel('Receipt id or link').getAttribute('aria-invalid')).toBe('true');
    await page.context().close();
  }, 60_000);
});

describe('Lighthouse on the newcomer’s way in', () => {
  // The Record and the receipt are audited by lighthouse.test.ts; this journey adds the two pages
  // only it visits: crossing and the ledger's check.
  it('crossing and the ledger score at least 95 in accessibility, best practices and SEO', async () => {
    await expectLighthouse([`${e.base}/initiate?return_to=%2Fimprint`, `${e.base}/ledger`]);
  }, 300_000);
});
