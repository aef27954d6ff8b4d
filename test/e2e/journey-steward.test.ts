/**
 * A steward's journey in real Chromium at 1280 and 390 px: from the header's "Steward inbox", triages
 * a held imprint (released, with a private note) and follows the decision's receipt; accepts an
 * order with a public note, marks it applied, and sees it so on /orders; prepares a person's export
 * with a note, which the person then reads on /settings/data. Every page on the way: axe 0, no
 * sideways scroll, no console error, a full-page screenshot in test/.artifacts/e2e/. Lighthouse runs
 * once, on the inbox (signed in as the steward): the page this journey is about.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldAgentImprint } from '../helpers/builders.ts';
import { clean, expectLighthouse, startE2E, watchConsole, WIDTHS, type E2E } from '../helpers/e2e.ts';
import { signedInSovereign } from '../helpers/identity.ts';

let e: E2E;

beforeAll(async () => {
  e = await startE2E({ steward: true });
}, 180_000);

afterAll(async () => e?.close());

const heldNow = async (sequence: number) =>
  (
    await e.t.app.civitas.db.query<{ held: boolean }>('select held from imprints where sequence = $1', [
      sequence,
    ])
  )[0]!.held;

/** The inbox's form for one item, told apart by its hidden field. */
const itemForm = (page: Page, name: string, value: string) =>
  page.locator(`form:has(input[name="${name}"][value="${value}"])`);

describe.each(WIDTHS)('a steward at %i px', (width) => {
  it('triages a held imprint, decides an order and processes a data request from the inbox', async () => {
    const person = await signedInSovereign(e.t.app, { callsign: `Linnet${width}` });
    const held = await heldAgentImprint(e.t.app, `journey-held-${width}`, `Gullmark${width}`);
    const title = `Bigger buttons on phones (${width})`;
    const order = await e.post('/sovereign/order', { title }, person);
    const request = await e.post('/settings/data/request', { kind: 'export' }, person);

    const page = await e.open({ width, as: e.steward });
    const { problems } = watchConsole(page);

    // The header leads a steward to the inbox from any page.
    await page.goto(`${e.base}/`);
    if (width < 768) await page.locator('summary', { hasText: 'Menu' }).first().click();
    await page.getByRole('link', { name: 'Steward inbox' }).first().click();
    await page.waitForURL(`${e.base}/steward`);
    expect(await page.locator('main').innerText()).toContain(`Gullmark${width}`);
    await clean(page, `steward-${width}-1-inbox`);

    // Triage: release the held imprint with a private note; the decision has a receipt.
    const triage = itemForm(page, 'target', `imprint:${held.sequence}`);
    await triage.getByLabel('Private note').fill('A false positive: the words are harmless here.');
    await triage.getByRole('button', { name: 'Release' }).click();
    await page.waitForURL(/\/steward\?triaged=release/);
    expect(await page.getByRole('status').first().innerText()).toContain('Your triage is recorded');
    expect(await heldNow(held.sequence)).toBe(false);
    expect(await page.locator('main').innerText()).not.toContain(`Gullmark${width}`);
    await clean(page, `steward-${width}-2-triaged`);
    await page.getByRole('status').first().getByRole('link').first().click();
    await page.waitForURL(/\/receipt\/rcpt_/);
    expect(await page.locator('main').innerText()).toContain('Verified');
    await clean(page, `steward-${width}-3-triage-receipt`);

    // The order: accepted with a public note, then marked applied; /orders says so.
    await page.goto(`${e.base}/steward#orders`);
    await itemForm(page, 'order', order.order_id)
      .getByLabel('Public note')
      .fill('Planned for the next release.');
    await itemForm(page, 'order', order.order_id).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/steward\?decided=/);
    await itemForm(page, 'order', order.order_id).getByRole('button', { name: 'Mark as applied' }).click();
    await page.waitForURL(/\/steward\?decided=/);
    expect(await itemForm(page, 'order', order.order_id).count()).toBe(0);
    await page.goto(`${e.base}/orders`);
    const filed = page.locator('li, article, tr', { hasText: title }).last();
    expect((await filed.innerText()).toLowerCase()).toContain('applied');
    await clean(page, `steward-${width}-4-orders`);

    // The data request: the export, prepared with a note the person then reads.
    await page.goto(`${e.base}/steward#data`);
    const export_ = itemForm(page, 'id', request.request.id);
    await export_.getByLabel('Note to the requester').fill('Your export is ready to download.');
    await export_.getByRole('button', { name: 'Prepare the export' }).click();
    await page.waitForURL(/\/steward\?processed=/);
    expect(await page.getByRole('status').first().innerText()).toContain('The data request is processed');
    await clean(page, `steward-${width}-5-processed`);
    expect(problems).toEqual([]);
    await page.context().close();

    const own = await e.open({ width, as: person });
    await own.goto(`${e.base}/settings/data`);
    expect(await own.locator('.requests').innerText()).toContain('Your export is ready to download.');
    await clean(own, `steward-${width}-6-requester-sees`);
    await own.context().close();
  }, 180_000);
});

describe('Lighthouse on the steward inbox', () => {
  it('scores at least 95 in accessibility, best practices and SEO, with no render-blocking script', async () => {
    await e.post('/sovereign/order', { title: 'A calmer front page' }, await signedInSovereign(e.t.app));
    await heldAgentImprint(e.t.app, 'journey-held-lh', 'Ternmark');
    // The inbox is private (noindex) by design; every other SEO audit still counts.
    await expectLighthouse([`${e.base}/steward`], { cookie: e.steward.cookie, private: true });
  }, 300_000);
});
