/**
 * Erasure is confirmed on a page first and can be withdrawn while it waits, in real Chromium: one
 * click files nothing; "No, keep my data" goes back; "Yes" files the request; "Withdraw" takes it
 * back before a steward acts; filed again, the steward's "Erase now" erases. axe 0 violations.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { AXE_PATH, launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/ports.ts';
import { axeHere, shot, sidewaysScroll } from '../helpers/look.ts';
import { appWithSteward } from '../api/steward/helpers.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';

let t: TestApp;
let base: string;
let browser: Browser;
let steward: TestSovereign;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ({ t, steward } = await appWithSteward({ site: true, config: { origin: base } }));
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function as(who: TestSovereign, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
  await context.addInitScript({ path: AXE_PATH });
  const [name, value] = who.cookie.split('=');
  await context.addCookies([{ name, value, url: base }]);
  return context;
}

const requestsOf = async (who: TestSovereign) =>
  t.app.civitas.db.query<{ status: string }>(
    `select status from data_requests where sovereign_id = $1 and kind = 'erasure' order by created_at, id`,
    [who.id],
  );

describe.each([1280, 390])('erasure at %i px', (width) => {
  it('asks to confirm, can be withdrawn while pending, and erases only once a steward completes it', async () => {
    const person = await signedInSovereign(t.app, { callsign: `Erasable${width}` });
    const context = await as(person, width);
    const page = await context.newPage();
    await page.goto(`${base}/settings/data`);

    // One click only asks.
    await page.getByRole('link', { name: 'Request erasure…' }).click();
    await page.getByRole('heading', { name: 'Request erasure of everything about you?' }).waitFor();
    expect(await requestsOf(person)).toEqual([]);
    expect(await axeHere(page)).toEqual([]);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await shot(page, `erasure-confirm-${width}`);
    await page.getByRole('link', { name: 'No, keep my data' }).click();
    await page.waitForURL(`${base}/settings/data`);
    expect(await requestsOf(person)).toEqual([]);

    // Confirmed, it is filed and waits; withdrawn, nothing will be done.
    await page.getByRole('link', { name: 'Request erasure…' }).click();
    await page.getByRole('button', { name: 'Yes, request erasure' }).click();
    await page.waitForURL(/filed=erasure/);
    expect(await requestsOf(person)).toEqual([{ status: 'pending' }]);
    await page.getByRole('button', { name: 'Withdraw this erasure request' }).click();
    await page.waitForURL(/withdrawn=erasure/);
    expect(await page.getByRole('status').first().innerText()).toContain('withdrawn');
    expect(await requestsOf(person)).toEqual([{ status: 'withdrawn' }]);
    expect(await axeHere(page)).toEqual([]);

    // Filed again, a steward's "Erase now" erases.
    await page.getByRole('link', { name: 'Request erasure…' }).click();
    await page.getByRole('button', { name: 'Yes, request erasure' }).click();
    await page.waitForURL(/filed=erasure/);
    const stewardContext = await as(steward, width);
    const inbox = await stewardContext.newPage();
    await inbox.goto(`${base}/steward`);
    const [pending] = await t.app.civitas.db.query<{ id: string }>(
      `select id from data_requests where sovereign_id = $1 and status = 'pending'`,
      [person.id],
    );
    await inbox
      .locator(`form:has(input[name="id"][value="${pending.id}"])`)
      .getByRole('button', { name: 'Erase now' })
      .click();
    await inbox.waitForURL(/processed=/);
    const [left] = await t.app.civitas.db.query('select callsign from sovereigns where id = $1', [person.id]);
    expect(left).toBeUndefined();
    await stewardContext.close();
    await context.close();
  }, 120_000);
});
