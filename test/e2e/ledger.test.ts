/**
 * The ledger pages in headless Chromium under the real CSP: a receipt, the ledger, a ledger entry,
 * the anchor chain and the witnesses page, each with no console errors and no axe violation (screenshots in test/.artifacts/e2e/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealDueDays } from '../../api/ledger/sealing.ts';
import { axeHere, shot, startE2E, watchConsole, type E2E } from '../helpers/e2e.ts';

let e: E2E;
let receiptId: string;

beforeAll(async () => {
  e = await startE2E();
  const { t } = e;
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
}, 120_000);

afterAll(async () => e?.close());

describe('ledger pages in Chromium', () => {
  it('render accessibly under the real CSP', async () => {
    const context = await e.context();
    for (const [path, text] of [
      [`/receipt/${receiptId}`, 'Verified against the signed anchor'],
      ['/ledger', 'Days of the log'],
      [`/ledger/${receiptId}`, 'History of the subject'],
      ['/verify/anchor-chain', 'Chain of 1 anchors verifies'],
      ['/witness', 'Become a witness'],
    ] as const) {
      const page = await context.newPage();
      const { problems } = watchConsole(page);
      const response = await page.goto(`${e.base}${path}`, { waitUntil: 'load' });
      expect(response?.status(), path).toBe(200);
      expect(await page.locator('main').innerText(), path).toContain(text);
      await shot(page, `ledger-${path.split('/')[1]}-${path.split('/').length}`);
      expect(await axeHere(page), path).toEqual([]);
      expect(problems, path).toEqual([]);
      await page.close();
    }
    await context.close();
  });
});
