/**
 * The front page is built on what people do, with live figures: open proposals with their cosign
 * progress, orders awaiting a decision, forecasts and people; and a render that shows figures beyond
 * the Record is not kept past LIVE_FIGURES_SECONDS (unit: kept-renders.test.ts). Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

const { page, post } = requests(() => t.app);
const home = async (cookie?: string) => (await page('/', cookie)).body;

describe('the front page', () => {
  it('shows an open proposal with its cosign progress and an order awaiting a decision, live', async () => {
    const before = await home();
    expect(before).toContain('No proposal is open.');
    expect(before).toContain('0 orders awaiting a steward');

    const proposer = await signedInSovereign(t.app, { governance: true });
    const proposed = await post(
      '/api/constitution/propose',
      { title: 'Receipts are kept for ten years', text: 'Every receipt stays verifiable.' },
      proposer,
    );
    expect(proposed.statusCode).toBe(200);
    const filed = await post(
      '/sovereign/order',
      { title: 'Add a dark theme', detail: 'For night readers.' },
      proposer,
    );
    expect(filed.statusCode).toBe(200);

    // Neither write touched the Record's imprints, yet a fresh render shows both: the live figures
    // are read per render (an anonymous visitor may get the kept render for up to its max-age).
    const after = await home(proposer.cookie);
    expect(after).toContain('Receipts are kept for ten years');
    expect(after).toContain('0 of 3 cosigns');
    expect(after).toContain('1 order awaiting a steward');
    expect(after).toContain('Add a dark theme');
    expect(after).toMatch(/prophecies open in all/);
  });
});
