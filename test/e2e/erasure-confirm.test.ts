/**
 * Irreversible steps are confirmed on a page first and can be called off, in real Chromium at 1280
 * and 390 px. The owner: one click files nothing; "No, keep my data" goes back; "Yes" files the
 * request; "Withdraw" takes it back before a steward acts. The steward: "Erase now…" (inbox or
 * queue) only leads to a panel saying what goes and that it cannot be undone; Cancel erases nothing;
 * "Yes, erase now" erases. Rotating a relay token: "Rotate relay token…" asks, "No" keeps it, "Yes"
 * rotates. axe 0 violations and no sideways scroll on every confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continuousAgent } from '../helpers/builders.ts';
import { clean, startE2E, WIDTHS, type E2E } from '../helpers/e2e.ts';
import { requests } from '../helpers/http.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';

let e: E2E;

beforeAll(async () => {
  e = await startE2E({ steward: true });
}, 180_000);

afterAll(async () => e?.close());

const erasuresOf = async (who: TestSovereign) =>
  e.t.app.civitas.db.query<{ status: string }>(
    `select status from data_requests where sovereign_id = $1 and kind = 'erasure' order by created_at, id`,
    [who.id],
  );
const exists = async (who: TestSovereign) =>
  (await e.t.app.civitas.db.query('select 1 from sovereigns where id = $1', [who.id])).length === 1;

describe.each(WIDTHS)('erasure at %i px', (width) => {
  it('the owner confirms first and can withdraw while it waits', async () => {
    const person = await signedInSovereign(e.t.app, { callsign: `Erasable${width}` });
    const page = await e.open({ width, as: person });
    await page.goto(`${e.base}/settings/data`);

    // One click only asks.
    await page.getByRole('link', { name: 'Request erasure…' }).click();
    await page.getByRole('heading', { name: 'Request erasure of everything about you?' }).waitFor();
    expect(await erasuresOf(person)).toEqual([]);
    await clean(page, `erasure-owner-confirm-${width}`);
    await page.getByRole('link', { name: 'No, keep my data' }).click();
    await page.waitForURL(`${e.base}/settings/data`);
    expect(await erasuresOf(person)).toEqual([]);

    // Confirmed, it is filed and waits; withdrawn, nothing will be done.
    await page.getByRole('link', { name: 'Request erasure…' }).click();
    await page.getByRole('button', { name: 'Yes, request erasure' }).click();
    await page.waitForURL(/filed=erasure/);
    expect(await erasuresOf(person)).toEqual([{ status: 'pending' }]);
    await page.getByRole('button', { name: 'Withdraw this erasure request' }).click();
    await page.waitForURL(/withdrawn=erasure/);
    expect(await page.getByRole('status').first().innerText()).toContain('withdrawn');
    expect(await erasuresOf(person)).toEqual([{ status: 'withdrawn' }]);
    await clean(page, `erasure-owner-withdrawn-${width}`);
    await page.context().close();
  }, 120_000);

  it('the steward’s "Erase now…" confirms on a page saying what goes; Cancel erases nothing', async () => {
    const person = await signedInSovereign(e.t.app, { callsign: `Leaving${width}` });
    const owner = await e.open({ width, as: person });
    await owner.goto(`${e.base}/settings/data?confirm=erasure`);
    await owner.getByRole('button', { name: 'Yes, request erasure' }).click();
    await owner.waitForURL(/filed=erasure/);
    const [pending] = await e.t.app.civitas.db.query<{ id: string }>(
      `select id from data_requests where sovereign_id = $1 and status = 'pending'`,
      [person.id],
    );

    const inbox = await e.open({ width, as: e.steward });
    await inbox.goto(`${e.base}/steward`);
    const item = inbox.locator(`form:has(input[name="id"][value="${pending!.id}"])`);
    // No button in the inbox erases: only a link to the confirmation.
    expect(await item.locator('button[value="complete"]').count()).toBe(0);
    await item.getByRole('link', { name: 'Erase now…' }).click();
    await inbox.waitForURL(/\/steward\/data-requests\?confirm=/);
    const panel = inbox.locator('.confirm-panel');
    expect(await panel.getByRole('heading').innerText()).toMatch(/^Erase everything about sovereign:/);
    expect(await panel.innerText()).toContain('This cannot be undone.');
    expect(await panel.innerText()).toContain('everything they wrote');
    await clean(inbox, `erasure-steward-confirm-${width}`);

    // Cancel: back to the inbox, nothing erased, the request still waits.
    await panel.getByRole('link', { name: 'Cancel, erase nothing' }).click();
    await inbox.waitForURL(`${e.base}/steward`);
    expect(await exists(person)).toBe(true);
    expect(await erasuresOf(person)).toEqual([{ status: 'pending' }]);

    // The owner withdraws while the steward looks at the confirmation: it no longer erases.
    await item.getByRole('link', { name: 'Erase now…' }).click();
    await inbox.waitForURL(/confirm=/);
    await owner.getByRole('button', { name: 'Withdraw this erasure request' }).click();
    await owner.waitForURL(/withdrawn=erasure/);
    await inbox.getByRole('button', { name: 'Yes, erase now' }).click();
    await inbox.waitForLoadState('load');
    expect(await exists(person)).toBe(true);
    expect(await inbox.locator('.error-summary').innerText()).not.toBe('');

    // Filed again and confirmed from the queue page, it erases.
    await owner.goto(`${e.base}/settings/data?confirm=erasure`);
    await owner.getByRole('button', { name: 'Yes, request erasure' }).click();
    await owner.waitForURL(/filed=erasure/);
    await inbox.goto(`${e.base}/steward/data-requests`);
    await inbox.getByRole('link', { name: 'Erase now…' }).first().click();
    await inbox.waitForURL(/confirm=/);
    await inbox.getByLabel('Note to the requester').fill('Erased as you asked.');
    await inbox.getByRole('button', { name: 'Yes, erase now' }).click();
    await inbox.waitForURL(/\/steward\/data-requests\?processed=/);
    expect(await exists(person)).toBe(false);
    await owner.context().close();
    await inbox.context().close();
  }, 120_000);
});

describe.each(WIDTHS)('rotating a relay token at %i px', (width) => {
  it('asks first; "No" keeps the token, "Yes" rotates it', async () => {
    const person = await signedInSovereign(e.t.app);
    const handle = `plover-${width}`;
    await continuousAgent(e.t, handle);
    const attested = await requests(() => e.t.app).post('/standing/rotate-relay', { handle }, person, {
      origin: e.base,
    });
    expect(attested.statusCode, attested.body).toBe(200);
    const tokenHash = async () =>
      (
        await e.t.app.civitas.db.query<{ relay_token_hash: string }>(
          'select relay_token_hash from agents where handle = $1',
          [handle],
        )
      )[0]!.relay_token_hash;
    const first = await tokenHash();

    const page = await e.open({ width, as: person });
    await page.goto(`${e.base}/standing?handle=${handle}`);
    expect(await page.locator('form[action="/standing/rotate-relay"]').count()).toBe(0);
    await page.getByRole('link', { name: 'Rotate relay token…' }).click();
    await page.getByRole('heading', { name: `Rotate the relay token of ${handle}?` }).waitFor();
    await clean(page, `rotate-confirm-${width}`);
    await page.getByRole('link', { name: 'No, keep the current token' }).click();
    await page.waitForURL(`${e.base}/standing?handle=${handle}`);
    expect(await tokenHash()).toBe(first);

    await page.getByRole('link', { name: 'Rotate relay token…' }).click();
    await page.getByRole('button', { name: 'Yes, rotate the token' }).click();
    await page.waitForLoadState('load');
    expect(await tokenHash()).not.toBe(first);
    await page.context().close();
  }, 120_000);
});
