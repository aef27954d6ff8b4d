/**
 * The steward inbox in real Chromium at 1280 and 390 px: what waits (an order, a held imprint, a
 * data request) each with its form; a steward accepts an order with a public note and processes a
 * data request, and the stored state says so; a signed-in non-steward and a visitor are refused.
 * axe 0 violations, no sideways scroll once decided (the inbox before is journey-steward.test.ts's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clean, startE2E, WIDTHS, type E2E } from '../helpers/e2e.ts';
import { signedInSovereign } from '../helpers/identity.ts';
import { heldAgentImprint } from '../helpers/builders.ts';
import { requests } from '../helpers/http.ts';

let e: E2E;

beforeAll(async () => {
  e = await startE2E({ steward: true });
}, 180_000);

afterAll(async () => e?.close());

const http = requests(() => e.t.app);

describe.each(WIDTHS)('the steward inbox at %i px', (width) => {
  it('shows what waits; a steward accepts an order and processes a data request, with notes', async () => {
    const person = await signedInSovereign(e.t.app);
    const order = await e.post('/sovereign/order', { title: `Larger type on phones (${width})` }, person);
    const request = await e.post('/settings/data/request', { kind: 'export' }, person);
    await heldAgentImprint(e.t.app, `e2e-held-${width}`, `Heldmark${width}`);

    const page = await e.open({ width, as: e.steward });
    const response = await page.goto(`${e.base}/steward`);
    expect(response?.status()).toBe(200);
    const main = await page.locator('main').innerText();
    expect(main).toContain(`Larger type on phones (${width})`);
    expect(main).toContain(`Heldmark${width}`);
    // The inbox with an order, a held imprint and a data request waiting, as the steward at this
    // width, is journey-steward.test.ts's first checked page (axe, sideways scroll, screenshot).

    // Accept the order with a public note.
    const orderForm = page.locator('form', { hasText: `Larger type on phones (${width})` });
    await orderForm.getByLabel('Public note').fill('Planned for the next release.');
    await orderForm.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/steward\?decided=/);
    expect(await page.getByRole('status').first().innerText()).toContain(
      'Your decision on the order is recorded',
    );
    const listed = (await http.get('/api/orders'))
      .json()
      .orders.find((o: { id: string }) => o.id === order.order_id);
    expect(listed.status).toBe('accepted');
    expect(listed.history.at(-1).note).toBe('Planned for the next release.');
    // Accepted, it stays in the inbox with the next step offered.
    expect(
      await page
        .locator('form', { hasText: `Larger type on phones (${width})` })
        .getByRole('button', { name: 'Mark as applied' })
        .count(),
    ).toBe(1);

    // Process the export request with a note to the requester.
    const requestForm = page.locator(`form:has(input[name="id"][value="${request.request.id}"])`);
    await requestForm.getByLabel('Note to the requester').fill('Your export is ready to download.');
    await requestForm.getByRole('button', { name: 'Prepare the export' }).click();
    await page.waitForURL(/\/steward\?processed=/);
    const [row] = await e.t.app.civitas.db.query<{ status: string; note: string }>(
      'select status, note from data_requests where id = $1',
      [request.request.id],
    );
    expect(row).toEqual({ status: 'completed', note: 'Your export is ready to download.' });
    await clean(page, `steward-inbox-after-${width}`);
    await page.context().close();
  }, 120_000);
});

describe('who may open the inbox', () => {
  it('refuses a signed-in non-steward (403) and sends a visitor to sign in, showing nothing that waits', async () => {
    const person = await signedInSovereign(e.t.app);
    await e.post('/sovereign/order', { title: 'Steward-only decisions' }, person);
    for (const cookie of [person.cookie, undefined]) {
      const page = await e.open({ as: cookie });
      const response = await page.goto(`${e.base}/steward`);
      if (cookie) expect(response?.status()).toBe(403);
      else expect(new URL(page.url()).pathname).toBe('/return');
      expect(await page.locator('form[action="/steward/orders"]').count()).toBe(0);
      expect(await page.locator('main').innerText()).not.toContain('Steward-only decisions');
      await page.context().close();
    }
  }, 60_000);
});
