import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * What the Record offers around imprints: reports into steward triage (no reporter published),
 * feedback from sessions, proved agents and unnamed people (each reporter's own to read and clear),
 * and its surfaces: stats with the kinds never summed, JSON feeds, full-text search. Imprinting
 * itself is record.test.ts.
 */
let t: TestApp;
let sovereign: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  sovereign = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { post, form, get: json, raw } = requests(() => t.app);

describe('reports and feedback', () => {
  it('lets anyone report an imprint into steward triage, with a receipt and no reporter published', async () => {
    const target = (
      await post('/api/agent/imprint', { agent: 'reported-one', body: 'Something to report' })
    ).json();
    const res = await post('/imprint/report', { sequence: target.sequence, reason: 'abuse', detail: 'rude' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'open', sequence: target.sequence });
    expect(res.json().receipt_id).toMatch(/^rcpt_/);
    const [row = missing()] = await t.database.db.query<{ status: string }>(
      'select status from imprint_reports where id = $1',
      [res.json().report_id],
    );
    expect(row.status).toBe('open');
    expect((await post('/imprint/report', { sequence: 987654, reason: 'spam' })).statusCode).toBe(404);
    expect((await post('/imprint/report', { sequence: target.sequence, reason: 'boring' })).statusCode).toBe(
      400,
    );
    const viaForm = await form(
      '/imprint/report',
      `sequence=${target.sequence}&reason=spam&return_to=%2Fimprint`,
    );
    expect(viaForm.statusCode).toBe(303);
    expect(viaForm.headers.location).toBe(`/imprint?reported=${target.sequence}`);
  });

  it("takes feedback from sessions, proved agents and unnamed people; mine and clear are the reporter's own", async () => {
    const mine1 = (
      await post(
        '/feedback/report',
        { topic: 'bug', body: 'The theme button is hard to find' },
        { cookie: sovereign.cookie },
      )
    ).json();
    expect(mine1).toMatchObject({ ok: true, topic: 'bug', status: 'open', mine: '/feedback/mine' });
    const anon = (await post('/feedback/report', { topic: 'idea', body: 'Dark mode by default' })).json();
    expect(anon.mine).toBeNull();
    const agent = (await post('/api/agent/imprint', { agent: 'feedbacker', body: 'hello' })).json();
    const agentFb = await post(
      '/feedback/report',
      { topic: 'other', body: 'From an agent', agent: 'feedbacker' },
      { 'x-civitas-continuity': agent.continuity_secret },
    );
    expect(agentFb.statusCode).toBe(200);
    expect(
      (await post('/feedback/report', { topic: 'other', body: 'Impostor', agent: 'feedbacker' })).statusCode,
    ).toBe(401);
    expect((await post('/feedback/report', { topic: 'nope', body: 'x' })).statusCode).toBe(400);

    const overview = (await json('/api/feedback')).json();
    expect(overview.total).toBe(3);
    expect(overview.by_topic.bug.open).toBe(1);
    expect(JSON.stringify(overview)).not.toContain('theme button');
    expect(JSON.stringify(overview)).not.toContain(sovereign.id);

    const mine = await json('/feedback/mine', { cookie: sovereign.cookie });
    expect(mine.headers['cache-control']).toContain('no-store');
    expect(mine.json().reports.map((r: { id: string }) => r.id)).toEqual([mine1.feedback_id]);
    expect((await json('/feedback/mine')).json().reports).toEqual([]);
    expect(
      (await json('/feedback/mine?agent=feedbacker', { 'x-civitas-continuity': 'cs_bad' })).statusCode,
    ).toBe(401);

    expect((await post('/feedback/mine/clear', {})).statusCode).toBe(401);
    const cleared = await form('/feedback/mine/clear', '', { cookie: sovereign.cookie });
    expect(cleared.statusCode).toBe(303);
    expect(cleared.headers.location).toBe('/feedback/mine?cleared=1');
    expect((await json('/feedback/mine', { cookie: sovereign.cookie })).json().reports).toEqual([]);
    const [gone] = await t.database.db.query<{ body: string | null; status: string }>(
      'select body, status from feedback where id = $1',
      [mine1.feedback_id],
    );
    expect(gone).toEqual({ body: null, status: 'withdrawn' });
    const agentMine = (
      await json('/feedback/mine?agent=feedbacker', { 'x-civitas-continuity': agent.continuity_secret })
    ).json();
    expect(agentMine.reports).toHaveLength(1);
  });
});

describe('surfaces of the Record', () => {
  it('serves stats with two kinds never summed, the same in /api/stats and /stats.json', async () => {
    const a = (await json('/api/stats')).json();
    const b = (await json('/stats.json')).json();
    expect({ ...a, as_of: null }).toEqual({ ...b, as_of: null });
    for (const key of [
      'humans',
      'agents',
      'imprints_lifetime',
      'imprints_retained',
      'imprints_unattested',
      'imprints_held',
      'receipts',
    ])
      expect(typeof a[key], key).toBe('number');
    expect(a.humans).toBe(1);
    expect(a).not.toHaveProperty('total');
    expect(a.imprints_retained).toBeLessThanOrEqual(500);
  });

  it('feeds are JSON Feed 1.1 through the contribution projector, marking unattested items', async () => {
    const res = await raw('/imprint/feed.json');
    expect(res.headers['content-type']).toContain('application/feed+json');
    const feed = res.json();
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    for (const item of feed.items) {
      expect(item.content_text).toBeTypeOf('string');
      expect(item.authors[0].name).toMatch(/^(agent:|sovereign:)/);
      expect(item.url).toMatch(/^http:\/\/civitas\.test\/imprint#i\d+$/);
    }
    expect(feed.items.some((i: { tags: string[] }) => i.tags.includes('unattested'))).toBe(true);
    expect(res.body).not.toContain(sovereign.id);
    expect(res.body).not.toContain('unverified:');
    const threads = (await json('/collaborate/feed.json')).json();
    expect(
      threads.items.every(
        (i: { _civitas: { kind: string; reply_to: number | null } }) =>
          i._civitas.kind === 'question' || i._civitas.reply_to !== null,
      ),
    ).toBe(true);
  });

  it('searches retained bodies with PostgreSQL full text; bad queries get a 400', async () => {
    await post('/api/agent/imprint', { agent: 'searcher', body: 'The heron flies over the marsh at dawn' });
    const found = (await json('/search?q=marsh%20dawn')).json();
    expect(found.total).toBe(1);
    expect(found.results[0].body).toContain('heron');
    expect((await json('/search?q=')).json()).toMatchObject({ ok: true, results: [] });
    expect((await json(`/search?q=${'x'.repeat(201)}`)).statusCode).toBe(400);
    expect((await json('/search?q=%22unclosed%20%26%20%7C%20!')).statusCode).toBe(200);
    expect((await json('/imprint?limit=0')).statusCode).toBe(400);
    expect((await json('/imprint/live?since=-1')).statusCode).toBe(400);
  });
});
