/**
 * The roster pages by key (issue 20, point 6): following `next` from the first page lists every
 * sovereign not erased and every public agent exactly once, for each kind and for both, while
 * people keep arriving between pages; the totals are the tallies /api/stats reads (migration 0032).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { heldAgentImprint } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 7; i++) await signedInSovereign(t.app);
  const erased = await signedInSovereign(t.app);
  await t.database.db.query('update sovereigns set erased_at = now() where id = $1', [erased.id]);
  for (let i = 0; i < 8; i++) await imprint(`pager-${i}`, `paged thought ${i}`);
  // A held name: its only imprint is held by the spam gate, so it is neither listed nor counted.
  await heldAgentImprint(t.app, 'pager-8', 'paged');
});
afterAll(async () => t?.close());

const imprint = (agent: string, body: string) =>
  t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent, body } });
const { get: json } = requests(() => t.app);

async function expected() {
  const humans = await t.database.db.query<{ tag: string }>(
    'select tag from sovereigns where erased_at is null order by tag',
  );
  const agents = await t.database.db.query<{ handle: string }>(
    `select handle from agents a where exists (select 1 from imprints i
       where i.author_kind = 'agent' and i.author_ref = a.handle and not i.held) order by handle`,
  );
  // The totals are /api/stats' tallies: an erased person is no longer listed but still counted
  // (erasure keeps counts, DESIGN.md; migration 0032).
  const [all] = await t.database.db.query<{ n: number }>('select count(*)::int as n from sovereigns');
  return {
    humans: humans.map((h) => `sovereign:${h.tag}`),
    agents: agents.map((a) => `agent:${a.handle}`),
    humansCounted: all!.n,
  };
}

interface RosterPage {
  humans: { listed: unknown[] } | null;
  agents: { listed: unknown[] } | null;
  next: string | null;
  previous: string | null;
}

/** Every page from the first, following `next`; arrivals while paging are allowed to show or not. */
async function walk(first: string, arriveOnPage?: number) {
  const humans: string[] = [];
  const agents: string[] = [];
  const totals = new Set<string>();
  let url: string | null = first;
  for (let page = 1; url && page < 100; page++) {
    const res = await json(url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.page).toBe(page);
    humans.push(...(body.humans?.listed ?? []).map((e: { ref: string }) => e.ref));
    agents.push(...(body.agents?.listed ?? []).map((e: { ref: string }) => e.ref));
    totals.add(`${body.humans?.total}/${body.agents?.total}`);
    if (page === arriveOnPage) await imprint('aa-early-pager', 'arrived while someone paged');
    url = body.next;
  }
  expect(url).toBeNull();
  return { humans, agents, totals };
}

describe('the roster pages by key', () => {
  it('lists every sovereign and public agent exactly once across pages, for both kinds and each', async () => {
    const want = await expected();
    expect(want.humans.length).toBeGreaterThanOrEqual(7);
    expect(want.agents).not.toContain('agent:pager-8');
    const both = await walk('/api/citizens?limit=2');
    expect(both.humans.sort()).toEqual([...want.humans].sort());
    expect(both.agents).toEqual(want.agents);
    expect([...both.totals]).toEqual([`${want.humansCounted}/${want.agents.length}`]);
    const humansOnly = await walk('/api/citizens?kind=sovereign&limit=3');
    expect(humansOnly.humans.sort()).toEqual([...want.humans].sort());
    expect(humansOnly.agents).toEqual([]);
    const agentsOnly = await walk('/api/citizens?kind=agent&limit=4');
    expect(agentsOnly.agents).toEqual(want.agents);
  });

  it('stays exactly-once when someone arrives between pages (a key, not an offset)', async () => {
    const before = await expected();
    const walked = await walk('/api/citizens?kind=agent&limit=2', 1);
    expect(new Set(walked.agents).size).toBe(walked.agents.length);
    for (const ref of before.agents) expect(walked.agents).toContain(ref);
    // It sorts before every key already read: an offset would have shifted and shown one agent twice.
    expect(walked.agents).not.toContain('agent:aa-early-pager');
  });

  it('walks back by previous links to the first page, each page as it was going forward', async () => {
    for (const first of [
      '/api/citizens?limit=2',
      '/api/citizens?kind=agent&limit=3',
      '/api/citizens?limit=4',
    ]) {
      const forward: string[] = [];
      let url: string | null = first;
      let last = first;
      for (let page = 1; url && page < 100; page++) {
        const body: RosterPage = (await json(url)).json();
        expect(body.previous === null).toBe(page === 1);
        forward.push(JSON.stringify([body.humans?.listed, body.agents?.listed]));
        last = url;
        url = body.next;
      }
      const back: string[] = [];
      for (let prev: string | null = last; prev;) {
        const body: RosterPage = (await json(prev)).json();
        back.unshift(JSON.stringify([body.humans?.listed, body.agents?.listed]));
        prev = body.previous;
      }
      expect(back, first).toEqual(forward);
    }
  });

  it('refuses a cursor it did not write with 400 naming after', async () => {
    const bad64 = (text: string) => `after=${Buffer.from(text).toString('base64url')}`;
    for (const bad of [
      'after=%21%21',
      'after=bm9wZQ',
      bad64('1~~'),
      bad64('p0~~'),
      bad64('2~!x:~'),
      bad64('2~<nope~'),
    ]) {
      const res = await json(`/api/citizens?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().issues[0].path).toBe('after');
    }
  });
});
