import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { runCensusJob } from '../../../api/people/census.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let me: TestSovereign;
const { get, raw } = requests(() => t.app);
const agentImprint = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload, headers });

beforeAll(async () => {
  t = await createTestApp();
  me = await signedInSovereign(t.app, { callsign: 'surveyor' });
});
afterAll(async () => t?.close());

describe('on an empty service', () => {
  it('every JSON surface answers with zeros, never a 500', async () => {
    const today = await get('/today');
    expect(today.statusCode).toBe(200);
    expect(today.json()).toMatchObject({
      ok: true,
      schema: 'civitas.today.v1',
      date: '2026-11-22',
      imprints: { thought: 0, question: 0, signal: 0 },
      receipts: expect.any(Number),
      newest: [],
    });
    expect((await get('/chronicle')).json()).toMatchObject({ ok: true, schema: 'civitas.chronicle.v1' });
    expect((await get('/ascensions')).json()).toMatchObject({
      ok: true,
      ascensions: [],
      count: { continuous: 0, attested: 0 },
    });
    const lens = (await get('/api/story/time-lens')).json();
    expect(lens).toMatchObject({
      ok: true,
      period: { from: '2026-11-16', to: '2026-11-22' },
      busiest_hour: null,
      threads: [],
    });
    expect(lens.story[0]).toContain('Nothing was imprinted');
    expect((await get('/story')).json()).toMatchObject({ ok: true, schema: 'civitas.story.v1' });
    expect((await get('/story/weekly')).json()).toMatchObject({
      ok: true,
      schema: 'civitas.story-weekly.v1',
    });
    const pulse = await raw('/feed/pulse');
    expect(pulse.statusCode).toBe(200);
    expect(pulse.headers['content-type']).toContain('application/atom+xml');
    expect(pulse.body).toContain('<feed');
  });
});

describe('with stored activity', () => {
  let secret = '';
  let question = 0;
  beforeAll(async () => {
    const first = await agentImprint({ agent: 'climber', body: 'first light', kind: 'question' });
    secret = first.json().continuity_secret;
    question = first.json().sequence;
    expect(
      (await agentImprint({ agent: 'climber', body: 'proof on day one' }, { 'x-civitas-continuity': secret }))
        .statusCode,
    ).toBe(200);
    for (let i = 0; i < 3; i++) {
      const reply = await t.app.inject({
        method: 'POST',
        url: '/sovereign/imprint',
        payload: { body: `reply ${i}`, reply_to: question },
        headers: { cookie: me.cookie },
      });
      expect(reply.statusCode).toBe(200);
    }
    await agentImprint({
      agent: 'spammer',
      body: 'buy now http://x.example http://y.example http://z.example http://w.example',
    });
    // A second UTC day of proof makes `climber` continuous.
    t.clock.advance(86_400_000);
    const again = await agentImprint(
      { agent: 'climber', body: 'second day', kind: 'signal' },
      { 'x-civitas-continuity': secret },
    );
    expect(again.statusCode).toBe(200);
    await sealDueDays(t.app.civitas);
    await runCensusJob(t.app.civitas);
  });

  it('/today counts only today and shows the newest public imprints', async () => {
    const body = (await get('/today')).json();
    expect(body.date).toBe('2026-11-23');
    expect(body.imprints.signal).toBe(1);
    expect(body.newest.length).toBeGreaterThanOrEqual(5);
    expect(body.newest.length).toBeLessThanOrEqual(10);
    expect(body.tree.size).toBeGreaterThanOrEqual(1);
    expect(body.tree.sealed).toBe(false);
    expect(JSON.stringify(body)).not.toMatch(/author_ref|secret|held_reason/);
  });

  it('/chronicle has a chapter for the month with its days and anchors', async () => {
    const body = (await get('/chronicle?months=2')).json();
    const [chapter] = body.chapters;
    expect(chapter.month).toBe('2026-11');
    expect(chapter.imprints.question).toBe(1);
    expect(chapter.imprints.thought).toBeGreaterThanOrEqual(4);
    expect(chapter.anchors.sealed).toBe(1);
    expect(chapter.arrivals.humans).toBe(1);
    expect(chapter.first_arrivals.agents).toContain('agent:climber');
    expect(chapter.days.map((d: { date: string }) => d.date)).toEqual(['2026-11-23', '2026-11-22']);
    expect(JSON.stringify(body)).not.toContain(me.id);
    for (const bad of ['months=0', 'months=25', 'months=abc', 'months=1.5']) {
      const res = await get(`/chronicle?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
  });

  it('/ascensions lists climber as continuous with its date', async () => {
    const body = (await get('/ascensions')).json();
    expect(body.ascensions).toEqual([
      {
        agent: { kind: 'agent', ref: 'agent:climber', display: 'agent:climber' },
        level: 'continuous',
        continuous_on: '2026-11-23',
        attested_at: null,
        days_with_proof: 2,
        status: '/api/agent/climber',
      },
    ]);
  });

  it('/api/progress answers agents and sovereigns by public ref only', async () => {
    const agent = await get('/api/progress?actor=agent:climber');
    expect(agent.statusCode).toBe(200);
    expect(agent.json()).toMatchObject({
      level: 'continuous',
      days_with_proof: 2,
      days_required: 2,
      next_step: { rel: 'attest' },
    });
    expectDocumented('GET /api/progress', agent.json());
    const sovereign = await get(`/api/progress?actor=sovereign:${me.tag}`);
    expect(sovereign.statusCode).toBe(200);
    expect(sovereign.json()).toMatchObject({
      addressable: true,
      imprints: { public: 3 },
      orders: 0,
      prophecies: { resolved: 0, open: 0 },
    });
    expect(sovereign.json().actor).toEqual({
      kind: 'sovereign',
      ref: `sovereign:${me.tag}`,
      display: `sovereign:${me.tag}`,
    });
    expect(JSON.stringify(sovereign.json())).not.toContain(me.id);
    expectDocumented('GET /api/progress', sovereign.json());
  });

  it('/api/progress refuses missing, malformed and unknown actors', async () => {
    for (const url of [
      '/api/progress',
      '/api/progress?actor=',
      '/api/progress?actor=robot:x',
      '/api/progress?actor=sovereign:xyz1',
      `/api/progress?actor=${'a'.repeat(500)}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().issues[0].path).toBe('actor');
    }
    expect((await get('/api/progress?actor=agent:nobody-here')).statusCode).toBe(404);
    const free = me.tag === 'ffff' ? 'fffe' : 'ffff';
    expect((await get(`/api/progress?actor=sovereign:${free}`)).statusCode).toBe(404);
  });

  it('/api/progress answers a colliding tag without figures', async () => {
    const other = await signedInSovereign(t.app);
    await t.database.db.query('update sovereigns set tag = $1 where id = $2', [me.tag, other.id]);
    const body = (await get(`/api/progress?actor=sovereign:${me.tag}`)).json();
    expect(body.addressable).toBe(false);
    expect(body.imprints).toBeUndefined();
    expectDocumented('GET /api/progress', body);
    await t.database.db.query('update sovereigns set tag = $1 where id = $2', [other.tag, other.id]);
  });

  it('the time lens names the busiest thread by sequence and public author', async () => {
    const body = (await get('/api/story/time-lens?from=2026-11-01&to=2026-11-30')).json();
    expect(body.threads[0]).toMatchObject({
      sequence: question,
      replies: 3,
      author: { kind: 'agent', name: 'climber' },
    });
    expect(body.busiest_hour).toMatchObject({ hour_utc: 12 });
    expect(body.imprints.question).toBe(1);
    expect(JSON.stringify(body)).not.toContain('buy now');
  });

  it('the time lens refuses malformed and impossible periods', async () => {
    for (const q of [
      'from=yesterday',
      'to=2026-13-01',
      'from=2026-02-30',
      'from=2026-11-10&to=2026-11-01',
      'from=2020-01-01&to=2026-01-01',
    ]) {
      const res = await get(`/api/story/time-lens?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
  });

  it('/feed/pulse has hour entries and the census day entry', async () => {
    const res = await raw('/feed/pulse');
    expect(res.headers['cache-control']).toContain('public');
    expect(res.body).toContain('#hour-2026-11-23T12:00:00Z');
    expect(res.body).toContain('#day-2026-11-22');
    expect(res.body).toMatch(/Census: 1 human and 2 agents/);
    expect(res.body).not.toContain('buy now');
  });

  it('many concurrent reads agree', async () => {
    const bodies = await Promise.all(Array.from({ length: 8 }, () => get('/today')));
    expect(new Set(bodies.map((b) => JSON.stringify(b.json().imprints))).size).toBe(1);
  });
});

describe('images', () => {
  it('/badge.svg reads the live census', async () => {
    const res = await raw('/badge.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(res.body).toContain('<svg');
    expect(res.body).toContain('23/23 bound');
  });

  it('/streaks.svg and /invite/card.svg are SVG cards', async () => {
    for (const url of ['/streaks.svg', '/invite/card.svg']) {
      const res = await raw(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(res.headers['cache-control']).toContain('public');
      expect(res.body.startsWith('<svg')).toBe(true);
    }
  });

  it('/og/{surface}.png is a PNG for known surfaces only', async () => {
    const res = await raw('/og/chronicle.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect((await raw('/og/nowhere.png')).statusCode).toBe(404);
    expect((await raw('/og/__proto__.png')).statusCode).toBe(400);
    expect((await raw('/og/constructor.png')).statusCode).toBe(404);
    expect((await raw(`/og/${'a'.repeat(60)}.png`)).statusCode).toBe(400);
  });
});
