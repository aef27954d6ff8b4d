/**
 * Court cases page by key (issue 20, point 6): /api/verdicts answers one bounded page, newest
 * opened first, with links to its neighbours, and the counts of every case from kept tallies;
 * /verdicts shows the same page and its links. Cases are opened through the court's door, against
 * held imprints a steward kept held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward, openedCase } from '../steward/helpers.ts';
import { requests } from '../../helpers/http.ts';
import {
  expectPageLinks,
  expectCursorsRefused,
  walkBack,
  walkForward,
  type PageBody,
} from '../../helpers/paging.ts';

let t: TestApp;
let steward: TestSovereign;
let opener: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward({ site: true }));
  opener = await signedInSovereign(t.app, { governance: true });
});
afterAll(async () => t?.close());

const { get, page } = requests(() => t.app);

let n = 0;
const openCase = () => openedCase(t, steward, opener, `paging-${++n}`);

type Case = { id: string };
const casesOf = (body: PageBody) => (body as PageBody & { cases: Case[] }).cases;

describe('/api/verdicts', () => {
  it('walks every case once, newest first, while one is opened between pages; previous walks back', async () => {
    const opened = [];
    for (let i = 0; i < 5; i++) opened.push(await openCase());
    let late = '';
    const walked = await walkForward(get, '/api/verdicts?limit=2', casesOf, async (p) => {
      if (p === 1) late = await openCase();
    });
    // The late case is newer than the first page: it is not on the pages after it.
    expect(walked.items.map((c) => c.id)).toEqual([...opened].reverse());
    expect(walked.pages).toBe(3);
    const first = (await get('/api/verdicts?limit=2')).json();
    expect(first.cases[0].id).toBe(late);
    expect(first.counts).toMatchObject({ cases: 6, open: 6, final: 0 });
    const back = await walkBack(get, walked.last, casesOf);
    // Walking back from the oldest page reaches the late case too: it is newer than them all.
    expect(back.map((c) => c.id)).toEqual([late, ...[...opened].reverse()]);
  });

  it('answers 50 unless asked, at most 200, and refuses a cursor it did not write', async () => {
    expect((await get('/api/verdicts')).json()).toMatchObject({ limit: 50, previous: null, next: null });
    expect((await get('/api/verdicts?limit=201')).statusCode).toBe(400);
    await expectCursorsRefused(get, '/api/verdicts');
  });
});

describe('/verdicts', () => {
  it('shows a page of cases with links to the next and previous pages, and 400 for a link it did not make', async () => {
    await expectPageLinks(page, '/verdicts');
  });
});
