/**
 * The censuses page by key (issue 20, point 6): following `next` from the newest census lists
 * every snapshot exactly once, newest first, even when a new census is taken between pages;
 * `previous` walks back to the first page; a cursor the list did not write is a 400, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { BAD_CURSORS, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';
import { runCensusJob } from '../../../api/people/census.ts';

const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-01T10:00:00.000Z');
  await signedInSovereign(t.app);
  t.clock.set('2026-03-14T08:00:00.000Z');
  expect((await runCensusJob(t.app.civitas)).taken).toHaveLength(13);
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const dates = (body: PageBody) =>
  (body as PageBody & { censuses: { date: string }[] }).censuses.map((c) => c.date);

async function stored() {
  const rows = await t.database.db.query<{ date: string }>(
    `select to_char(date, 'YYYY-MM-DD') as date from census_snapshots order by date desc`,
  );
  return rows.map((r) => r.date);
}

describe('/api/censuses pages by key', () => {
  it('lists every census once, newest first, while a new one is taken between pages', async () => {
    const before = await stored();
    const walked = await walkForward(get, '/api/censuses?limit=4', dates, async (page) => {
      if (page !== 1) return;
      t.clock.advance(DAY);
      expect((await runCensusJob(t.app.civitas)).taken).toHaveLength(1);
    });
    expect(walked.pages).toBe(4);
    expect(walked.items).toEqual(before);
    // Back from the last page to the first: the new census is on the first page now.
    expect(await walkBack(get, walked.last, dates)).toEqual(await stored());
  });

  it('keeps the older before= form of a next link', async () => {
    const all = await stored();
    const res = (await get(`/api/censuses?before=${all[2]}&limit=2`)).json();
    expect(res.censuses.map((c: { date: string }) => c.date)).toEqual(all.slice(3, 5));
    expect(res.next).toMatch(/^\/api\/censuses\?limit=2&after=/);
  });

  it('refuses a cursor it did not write, or a date that is not one, with 400', async () => {
    const notADay = Buffer.from('["n","2026-13-45"]').toString('base64url');
    for (const bad of [...BAD_CURSORS, notADay].map((c) => `after=${c}`).concat('before=2026-13-45')) {
      const res = await get(`/api/censuses?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().issues[0].path, bad).toBe(bad.split('=')[0]);
    }
    expect((await get('/api/censuses?limit=367')).statusCode).toBe(400);
  });
});
