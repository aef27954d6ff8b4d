/**
 * Dissent pages by key (issue 20, points 6 and 7): /api/dissent answers one bounded page of final
 * verdicts with dissent, newest opened first, with links to its neighbours, and counts every final
 * verdict and dissent from kept tallies, not from the page it read; /dissent shows the same page
 * and its links. Cases are decided through the court's door by jurors with governance standing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward, openedCase } from '../steward/helpers.ts';
import { requests } from '../../helpers/http.ts';
import { at } from '../../helpers/elements.ts';
import { COURT_TALLIES_RECOUNT } from '../../helpers/public-tallies.ts';
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
const jurors: TestSovereign[] = [];
beforeAll(async () => {
  ({ t, steward } = await appWithSteward({ site: true }));
  opener = await signedInSovereign(t.app, { governance: true });
  for (let i = 0; i < 4; i++) jurors.push(await signedInSovereign(t.app, { governance: true }));
});
afterAll(async () => t?.close());

const { get, post, page } = requests(() => t.app);

let n = 0;
/** A case opened and decided: three jurors uphold, and when `dissenting` a fourth overturns first. */
async function decidedCase(dissenting: boolean): Promise<string> {
  const id = await openedCase(t, steward, opener, `dissent-${++n}`);
  const sign = async (who: TestSovereign, verdict: string, reason: string) => {
    const res = await post('/sovereign/court-sign', { case_id: id, verdict, reason }, who.cookie);
    expect(res.statusCode, res.body).toBe(200);
  };
  if (dissenting) await sign(at(jurors, 3), 'overturn', 'Not spam.');
  for (const juror of jurors.slice(0, 3)) await sign(juror, 'uphold', 'Spam.');
  return id;
}

type Dissent = { case_id: string; dissents: unknown[] };
const verdictsOf = (body: PageBody) => (body as PageBody & { verdicts: Dissent[] }).verdicts;

describe('/api/dissent', () => {
  it('walks every final verdict with dissent once, newest first; previous walks back; every one counted', async () => {
    const withDissent = [];
    for (let i = 0; i < 5; i++) {
      const id = await decidedCase(i % 2 === 0);
      if (i % 2 === 0) withDissent.push(id);
    }
    const walked = await walkForward(get, '/api/dissent?limit=2', verdictsOf);
    expect(walked.items.map((v) => v.case_id)).toEqual([...withDissent].reverse());
    expect(walked.items.every((v) => v.dissents.length === 1)).toBe(true);
    expect(walked.pages).toBe(2);
    const back = await walkBack(get, walked.last, verdictsOf);
    expect(back.map((v) => v.case_id)).toEqual([...withDissent].reverse());
    // The figures are every final verdict's, whatever the page: from the tallies, as a recount gives.
    const last = (await get(walked.last)).json();
    expect(last.counts).toEqual({ final_verdicts: 5, with_dissent: 3, dissents: 3 });
    const recount = await t.database.db.query<{ name: string; n: number }>(
      `select name, n from (${COURT_TALLIES_RECOUNT}) r where name in ('court:with_dissent', 'court:dissents') order by name`,
    );
    expect(recount.map((r) => [r.name, Number(r.n)])).toEqual([
      ['court:dissents', 3],
      ['court:with_dissent', 3],
    ]);
  });

  it('answers 50 unless asked, at most 200, and refuses a cursor it did not write', async () => {
    expect((await get('/api/dissent')).json()).toMatchObject({ limit: 50, previous: null, next: null });
    expect((await get('/api/dissent?limit=201')).statusCode).toBe(400);
    await expectCursorsRefused(get, '/api/dissent');
  });
});

describe('/dissent', () => {
  it('shows a page of verdicts with links to the next and previous pages, and 400 for a link it did not make', async () => {
    const first = await expectPageLinks(page, '/dissent');
    expect(first.body).toContain('3 dissents on 3 of 5 final verdicts');
  });
});
