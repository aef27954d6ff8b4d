/**
 * Inscriptions page by key (issue 20, point 6): /api/inscriptions answers one bounded page, oldest
 * first, with links to its neighbours, so the list costs a page however many were bought; /endow
 * (and its alias /pricing) shows the same page and its links. Inscriptions are written below the
 * doors here, as the payment webhook writes them (api/treasury/webhooks.ts: the id is the ULID of
 * the moment of inscription).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import {
  expectPageLinks,
  expectCursorsRefused,
  walkBack,
  walkForward,
  type PageBody,
} from '../../helpers/paging.ts';
import { newId } from '../../../api/ids.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

const { get, page } = requests(() => t.app);

/** Inscriptions bought at the given moments, each with the payment it came from. */
async function inscribe(...moments: string[]) {
  for (const [i, moment] of moments.entries()) {
    const at = new Date(moment);
    const payment = newId('pay', at);
    await t.database.db.query(
      `insert into treasury_payments (id, event_id, purpose, amount_cents, currency, received_at)
       values ($1, $2, 'inscription', 300, 'usd', $3)`,
      [payment, `evt_${payment}`, at.toISOString()],
    );
    await t.database.db.query(
      `insert into treasury_inscriptions (id, payment_id, body, public_ref, inscribed_at) values ($1, $2, $3, $4, $5)`,
      [newId('ins', at), payment, `inscription ${moment} ${i}`, 'sovereign:ada', at.toISOString()],
    );
  }
}

type Inscription = { id: string; text: string; inscribed_at: string };
const inscriptionsOf = (body: PageBody) => (body as PageBody & { inscriptions: Inscription[] }).inscriptions;

describe('/api/inscriptions', () => {
  it('walks every inscription once, oldest first, while one arrives between pages; previous walks back', async () => {
    await inscribe(
      '2026-11-01T10:00:00.000Z',
      '2026-11-01T10:00:00.000Z',
      '2026-11-02T09:00:00.000Z',
      '2026-11-03T12:30:00.000Z',
      '2026-11-05T08:00:00.000Z',
    );
    const walked = await walkForward(get, '/api/inscriptions?limit=2', inscriptionsOf, async (n) => {
      if (n === 1) await inscribe('2026-11-20T00:00:00.000Z');
    });
    expect(walked.pages).toBe(3);
    const times = walked.items.map((i) => i.inscribed_at);
    expect(times).toEqual([...times].sort());
    expect(times).toHaveLength(6);
    expect(times.at(-1)).toBe('2026-11-20T00:00:00.000Z');
    expect(new Set(walked.items.map((i) => i.id)).size).toBe(6);
    const back = await walkBack(get, walked.last, inscriptionsOf);
    expect(back.map((i) => i.id)).toEqual(walked.items.map((i) => i.id));
  });

  it('answers 50 unless asked, at most 200, and refuses a cursor it did not write', async () => {
    const first = (await get('/api/inscriptions')).json();
    expect(first).toMatchObject({ limit: 50, previous: null, next: null });
    expect((await get('/api/inscriptions?limit=201')).statusCode).toBe(400);
    await expectCursorsRefused(get, '/api/inscriptions');
  });
});

describe('/endow', () => {
  it('shows a page of inscriptions with links to the next and previous pages, under its own path', async () => {
    await expectPageLinks(page, '/endow');
    // /pricing is the same page under another path: its links keep its own.
    const alias = await page('/pricing?limit=2');
    expect(alias.body).toMatch(/<a href="\/pricing\?limit=2&amp;after=[^"]+" rel="next">/);
  });
});
