/**
 * The cohorts page by key (issue 20, point 6): following `next` lists every cohort once, oldest
 * first, even when a new month's cohort arrives between pages; `previous` walks back; a cursor the
 * list did not write is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { expectCursorsRefused, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';

let t: TestApp;
/** Five agents arrive in `month` (YYYY-MM): a cohort of its own (k = 5). */
async function cohortOf(month: string) {
  t.clock.set(`${month}-10T12:00:00.000Z`);
  for (let i = 0; i < 5; i++) await agentImprint(t.app, `c${month.replace('-', '')}-${i}`, 'joined');
}
beforeAll(async () => {
  t = await createTestApp();
  for (const month of ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05']) await cohortOf(month);
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const months = (body: PageBody) =>
  (body as PageBody & { cohorts: { month: string }[] }).cohorts.map((c) => c.month);

describe('/api/cohorts pages by key', () => {
  it('lists every cohort once, oldest first, while a new one arrives between pages', async () => {
    const before = months((await get('/api/cohorts')).json());
    expect(before).toEqual(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05']);
    const walked = await walkForward(get, '/api/cohorts?limit=2', months, async (page) => {
      if (page === 1) await cohortOf('2026-06');
    });
    expect(walked.items).toEqual([...before, '2026-06']);
    expect(await walkBack(get, walked.last, months)).toEqual(walked.items);
    await expectCursorsRefused(get, '/api/cohorts');
  });
});
