import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { pearson } from '../../../../api/organism/experiments/expeditions.ts';
import { organismJobs } from '../../../../api/organism/jobs.ts';
import { fitLine } from '../../../../api/organism/experiments/branchworld.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../../helpers/identity.ts';
import { requests } from '../../../helpers/http.ts';
import { at, missing } from '../../../helpers/elements.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

let t: TestApp;
let sovereign: TestSovereign;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;
const PRO = 'pro_01KAAAAAAAAAAAAAAAAAAAAAAA';
const PROP = 'prop_01KAAAAAAAAAAAAAAAAAAAAAAA';

const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

async function seed(
  author: string,
  body: string,
  at: number,
  extra: { held?: boolean; sovereign?: boolean; replyTo?: number | null; heldReason?: string } = {},
) {
  return t.database.db.transaction((tx) =>
    appendImprint(
      tx,
      imprintDraft({
        body,
        authorKind: extra.sovereign ? 'sovereign' : 'agent',
        authorRef: author,
        publicAuthor: extra.sovereign ? 'abcd' : author,
        held: extra.held ?? false,
        heldReason: extra.held ? (extra.heldReason ?? 'burst') : null,
        replyTo: extra.replyTo ?? null,
        at: new Date(at),
      }),
    ),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  sovereign = await signedInSovereign(t.app, { governance: true });
  for (let i = 0; i < 6; i++) {
    await sql(
      `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ($1, 'x', 'arrived', $2, $2)`,
      [`swarm-${i}`, new Date(NOW - 40 * DAY).toISOString()],
    );
  }
  await sql(
    `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ('lonely', 'x', 'attested', $1, $1)`,
    [new Date(NOW - 40 * DAY).toISOString()],
  );
  let at = NOW - 3 * 3_600_000;
  // A thread: root by swarm-0, replies alternating kinds, depth 4.
  const root = await seed('swarm-0', 'lanterns harbour tonight', (at += 60_000));
  const r1 = await seed(sovereign.id, 'lanterns harbour reply human', (at += 60_000), {
    sovereign: true,
    replyTo: root.sequence,
  });
  const r2 = await seed('swarm-1', 'lanterns harbour agent answer', (at += 60_000), { replyTo: r1.sequence });
  await seed('swarm-2', 'harbour lanterns deeper still', (at += 60_000), { replyTo: r2.sequence });
  await seed('swarm-3', 'held reply secret', (at += 60_000), {
    held: true,
    heldReason: 'link_density',
    replyTo: r2.sequence,
  });
  for (let i = 0; i < 6; i++) await seed(`swarm-${i}`, `lanterns harbour chorus ${i}`, (at += 60_000));
  await seed('lonely', 'lanterns alone', (at += 60_000));
  for (let i = 0; i < 3; i++) await seed('swarm-5', `burst ${i}`, (at += 1_000), { held: true });
  await sql(
    `insert into prophecies (id, forecaster_kind, metric, comparator, threshold, probability, made_at, due_at, receipt_id) values ($1, 'service', 'imprints_lifetime', 'gte', 100, 0.5, $2, $3, 'rcpt_x')`,
    [PRO, new Date(NOW - 10 * DAY).toISOString(), new Date(NOW + 10 * DAY).toISOString()],
  );
  await sql(
    `insert into governance_proposals (id, title, body, proposer_id, state, created_at, receipt_id) values ($1, 'Quiet hours', 'text', $2, 'proposed', $3, 'rcpt_y')`,
    [PROP, sovereign.id, new Date(NOW - DAY).toISOString()],
  );
  // Dreams for the dream constellation.
  await sql(
    `insert into dreams (date, window_start, window_end, bodies, terms, made_at, receipt_id) values
    ('2026-11-20', $1, $1, 3, '[{"term":"lanterns","count":3,"score":1},{"term":"harbour","count":2,"score":1}]'::jsonb, $1, 'rcpt_d1'),
    ('2026-11-21', $1, $1, 2, '[{"term":"lanterns","count":2,"score":1},{"term":"tide","count":2,"score":1}]'::jsonb, $1, 'rcpt_d2')`,
    [new Date(NOW - DAY).toISOString()],
  );
}, 120_000);
afterAll(async () => t?.close());

describe('swarm, spines, cross, constellation', () => {
  it('swarm counts agents by level without naming any, hiding groups under 5', async () => {
    const res = await json('/api/swarm');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.hours).toHaveLength(24);
    const arrived = body.day.find((d: { level: string }) => d.level === 'arrived');
    expect(arrived.agents).toBe(6);
    expect(arrived.imprints).toBeGreaterThanOrEqual(6);
    const attested = body.day.find((d: { level: string }) => d.level === 'attested');
    expect(typeof attested.agents).toBe('string');
    expect(attested.imprints).toBeNull();
    expect(res.body).not.toContain('lonely');
    expect(res.body).not.toContain('swarm-');
  });

  it('spines follow the deepest reply chain, skipping held imprints, with public authors only', async () => {
    const body = (await json('/api/spines')).json();
    expect(body.threads).toBe(1);
    expect(body.spines[0].length).toBe(4);
    expect(body.spines[0].imprints).toBe(4);
    expect(body.spines[0].spine[1].author.kind).toBe('sovereign');
    const text = JSON.stringify(body);
    expect(text).not.toContain(sovereign.id);
    expect(text).not.toContain('swarm-3');
  });

  it('cross counts replies across kinds, never the held one', async () => {
    const body = (await json('/api/cross')).json();
    expect(body.cross_replies.lifetime).toBe(2);
    const aa = body.pairs.find((p: { from: string; to: string }) => p.from === 'agent' && p.to === 'agent');
    expect(aa.lifetime).toBe(1);
    expect(JSON.stringify(body)).not.toContain(sovereign.id);
  });

  it('constellation links terms that share bodies; dream constellation links terms of the same dream', async () => {
    const body = (await json('/api/constellation')).json();
    expect(body.stars.map((s: { term: string }) => s.term)).toContain('lanterns');
    expect(body.links.some((l: { a: string; b: string }) => l.a === 'harbour' && l.b === 'lanterns')).toBe(
      true,
    );
    expect(JSON.stringify(body)).not.toContain('secret');
    const dreams = (await json('/dream-constellation')).json();
    expect(dreams.dreams).toBe(2);
    expect(dreams.stars[0]).toMatchObject({ term: 'lanterns', dreams: 2 });
    expect(dreams.links).toContainEqual({ a: 'harbour', b: 'lanterns', shared: 1 });
  });

  it('observatory gathers every instrument with its source', async () => {
    const res = await json('/api/observatory');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.instruments.map((i: { key: string }) => i.key)).toContain('swarm');
    for (const i of body.instruments) expect(i.source).toMatch(/^\/api\//);
  });
});

describe('branchworld', () => {
  it("projects a prophecy trajectory and a proposal's branches; 400 malformed, 404 unknown", async () => {
    const p = await json(`/branchworld/${PRO}`);
    expect(p.statusCode).toBe(200);
    expect(p.json().trajectory).toHaveLength(30);
    expect(p.json().current).toBeGreaterThan(10);
    const g = (await json(`/branchworld/${PROP}`)).json();
    expect(g.proposal).toMatchObject({ cosigns: 0, cosigns_required: 3, state: 'proposed' });
    expect(JSON.stringify(g)).not.toContain(sovereign.id);
    expect((await json('/branchworld/nope')).statusCode).toBe(400);
    expect([400, 414]).toContain((await json(`/branchworld/${'x'.repeat(5000)}`)).statusCode);
    expect((await json(`/branchworld/pro_${'x'.repeat(80)}`)).statusCode).toBe(400);
    expect((await json('/branchworld/pro_01KZZZZZZZZZZZZZZZZZZZZZZZ')).statusCode).toBe(404);
  });
  it('fits lines', () => {
    expect(
      fitLine([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
      ]),
    ).toEqual({ intercept: 1, slope: 2 });
    expect(fitLine([{ x: 0, y: 1 }])).toBeNull();
  });
});

describe('experiments and expeditions', () => {
  it('measures the burst rule and records runs only for a session', async () => {
    const body = (await json('/api/experiments/prevention')).json();
    expect(body.findings.held_burst).toBe(3);
    expect(body.findings.verdict).toBe('prevented');
    expect(body.runs.total).toBe(0);
    const anon = await t.app.inject({ method: 'POST', url: '/api/experiments/prevention', payload: {} });
    expect(anon.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/experiments/prevention',
      headers: { cookie: sovereign.cookie },
      payload: { variation: 'x'.repeat(501) },
    });
    expect(bad.statusCode).toBe(400);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/experiments/prevention',
      headers: { cookie: sovereign.cookie },
      payload: { nope: 1 },
    });
    expect(extra.statusCode).toBe(400);
    const runs = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/experiments/prevention',
          headers: { cookie: sovereign.cookie },
          payload: { variation: 'limit 8' },
        }),
      ),
    );
    for (const r of runs) expect(r.statusCode).toBe(200);
    const run = at(runs, 0).json().run;
    expect(run.receipt_id).toMatch(/^rcpt_/);
    const [receipt = missing()] = await sql<{ step: string }>('select step from receipts where id = $1', [
      run.receipt_id,
    ]);
    expect(receipt.step).toBe('organism.study.run');
    expect((await json('/api/experiments/prevention')).json().runs.total).toBe(3);
  });

  it('form posts answer 303 to a local page and refuse off-origin targets', async () => {
    const headers = {
      cookie: sovereign.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      origin: TEST_ORIGIN,
    };
    const ok = await t.app.inject({
      method: 'POST',
      url: '/experiments',
      headers,
      payload: 'variation=calmer',
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toMatch(/^\/experiments\?run=run_/);
    const off = await t.app.inject({
      method: 'POST',
      url: '/expeditions/recovery-paradox',
      headers,
      payload: 'return_to=https://evil.example/',
    });
    expect(off.statusCode).toBe(400);
    const exp = await t.app.inject({
      method: 'POST',
      url: '/expeditions/recovery-paradox',
      headers,
      payload: '',
    });
    expect(exp.statusCode).toBe(303);
  });

  it('the recovery paradox says insufficient data below 5 points, and correlates above', async () => {
    let body = (await json('/api/expeditions/recovery-paradox')).json();
    expect(body.findings.finding).toBe('insufficient_data');
    expect(body.findings.correlation).toBeNull();
    expect(body.runs.total).toBe(1);
    for (let d = 1; d <= 6; d++) {
      const day = NOW - d * DAY;
      for (let k = 0; k < d; k++)
        await sql(`insert into failures (lane, at) values ('runtime', $1)`, [
          new Date(day + k * 120_000).toISOString(),
        ]);
      await sql(
        `insert into vitals_minutes (process_id, minute, requests, server_errors, buckets) values ('p', $1, 5, 0, '{}')`,
        [new Date(day + (d + 2) * 600_000).toISOString()],
      );
    }
    // The findings are kept by the observatory job (api/organism/experiments/expeditions.ts).
    await organismJobs.find((j) => j.name === 'organism.observatory')?.run(t.app.civitas, t.app);
    body = (await json('/api/expeditions/recovery-paradox')).json();
    expect(body.findings.points.length).toBe(6);
    expect(typeof body.findings.correlation).toBe('number');
    expect(body.findings.finding).not.toBe('insufficient_data');
    expect(
      pearson([
        { x: 1, y: 2 },
        { x: 2, y: 4 },
        { x: 3, y: 6 },
      ]),
    ).toBe(1);
  });

  it('HEAD answers on the declared HEAD shapes', async () => {
    for (const url of ['/api/experiments/prevention', '/api/expeditions/recovery-paradox']) {
      const res = await t.app.inject({ method: 'HEAD', url });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('feed.xsl', () => {
  it('serves the feed stylesheet as XSLT', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/feed.xsl' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xsl/);
    expect(res.body).toContain('xsl:stylesheet');
    expect(res.body).toContain('http://www.w3.org/2005/Atom');
    expect((await t.app.inject({ method: 'HEAD', url: '/feed.xsl' })).statusCode).toBe(200);
  });
});
