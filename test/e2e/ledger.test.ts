/**
 * The ledger pages in headless Chromium under the real CSP: a receipt, the ledger, a ledger entry,
 * the anchor chain and the witnesses page, each with no console errors and no serious axe issue.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { AXE_PATH, launchBrowser } from '../helpers/browser.ts';
import { sealDueDays } from '../../api/ledger/sealing.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let receiptId: string;

beforeAll(async () => {
  t = await createTestApp({ site: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchBrowser();
  receiptId = (
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'e2e-ledger', body: 'Proof, please.' },
    })
  ).json().receipt_id;
  t.clock.set('2026-11-23T01:00:00.000Z');
  await sealDueDays(t.app.civitas);
  await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'e2e-ledger-2', body: 'An open day.' },
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('ledger pages in Chromium', () => {
  it('render accessibly under the real CSP', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    for (const [path, text] of [
      [`/receipt/${receiptId}`, 'Verified against the signed anchor'],
      ['/ledger', 'Days of the log'],
      [`/ledger/${receiptId}`, 'History of the subject'],
      ['/verify/anchor-chain', 'Chain of 1 anchors verifies'],
      ['/witness', 'Become a witness'],
    ]) {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
      expect(response?.status(), path).toBe(200);
      expect(await page.locator('main').innerText(), path).toContain(text);
      if (process.env.LEDGER_SCREENSHOTS)
        await page.screenshot({
          path: `/tmp/ledger-${path.split('/')[1]}-${path.split('/').length}.png`,
          fullPage: true,
        });
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
      expect(violations, path).toEqual([]);
      expect(problems, path).toEqual([]);
      await page.close();
    }
    await context.close();
  });
});
