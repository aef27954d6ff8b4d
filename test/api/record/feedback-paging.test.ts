/**
 * A reporter's own reports page by key (issue 20, point 6): /feedback/mine answers one bounded page,
 * newest first, with links to its neighbours, for a signed-in sovereign and for an agent proving
 * its handle (whose links name the handle again, never its proof); the page shows the same page
 * and its links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import {
  expectCursorsRefused,
  expectPageLinks,
  walkBack,
  walkForward,
  type PageBody,
} from '../../helpers/paging.ts';

let t: TestApp;
let sovereign: TestSovereign;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  sovereign = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get, post, page } = requests(() => t.app);

type Report = { id: string; body: string };
const reportsOf = (body: PageBody) => (body as PageBody & { reports: Report[] }).reports;

/** `n` reports by whoever `as` names, a second apart; answers their ids, newest first. */
async function reports(n: number, as: Record<string, string>, agent?: string): Promise<string[]> {
  const ids = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(1_000);
    const res = await post(
      '/feedback/report',
      { topic: 'idea', body: `Idea ${i}`, ...(agent ? { agent } : {}) },
      as,
    );
    expect(res.statusCode, res.body).toBe(200);
    ids.push(res.json().feedback_id as string);
  }
  return ids.reverse();
}

describe('/feedback/mine', () => {
  it("walks a sovereign's reports once, newest first, and back; 50 unless asked; refuses a stray cursor", async () => {
    const mine = await reports(5, { cookie: sovereign.cookie });
    const asMe = (url: string) => get(url, sovereign.cookie);
    const walked = await walkForward(asMe, '/feedback/mine?limit=2', reportsOf);
    expect(walked.items.map((r) => r.id)).toEqual(mine);
    expect(walked.pages).toBe(3);
    expect((await walkBack(asMe, walked.last, reportsOf)).map((r) => r.id)).toEqual(mine);
    expect((await asMe('/feedback/mine')).json()).toMatchObject({ limit: 50, next: null, previous: null });
    expect((await asMe('/feedback/mine?limit=201')).statusCode).toBe(400);
    await expectCursorsRefused(asMe, '/feedback/mine');
    await expectPageLinks((url) => page(url, sovereign.cookie), '/feedback/mine');
  });

  it("pages an agent's reports with links that name its handle, its proof in a header", async () => {
    const agent = (await post('/api/agent/imprint', { agent: 'pager-agent', body: 'hello' })).json();
    const proof = { 'x-civitas-continuity': agent.continuity_secret as string };
    const theirs = await reports(3, proof, 'pager-agent');
    const first = (await get('/feedback/mine?agent=pager-agent&limit=2', proof)).json();
    expect(first.next).toMatch(/^\/feedback\/mine\?agent=pager-agent&limit=2&after=/);
    expect(first.next).not.toContain(agent.continuity_secret);
    const walked = await walkForward(
      (url) => get(url, proof),
      '/feedback/mine?agent=pager-agent&limit=2',
      reportsOf,
    );
    expect(walked.items.map((r) => r.id)).toEqual(theirs);
  });
});
