import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { jsonHeaders as json } from '../../helpers/builders.ts';
import { MCP_TOOLS } from '../../../api/families.ts';
import { appWithSteward } from './helpers.ts';

let t: TestApp;
let steward: TestSovereign;
let author: TestSovereign;
const RUN = randomBytes(4).toString('hex');
const attested: number[] = [];
let held = 0;
let unattested = 0;

const lesson = (payload: unknown, cookie = steward.cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/steward/lesson',
    headers: json(cookie),
    payload: payload as Record<string, unknown>,
  });

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  author = await signedInSovereign(t.app);
  for (let i = 0; i < 3; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quick-imprint',
      headers: json(author.cookie),
      payload: { body: `An attested thought number ${i} ${RUN}` },
    });
    attested.push(res.json().sequence);
  }
  held = (
    await t.app.inject({
      method: 'POST',
      url: '/api/quick-imprint',
      headers: json(author.cookie),
      payload: { body: `casino bonus ${RUN}` },
    })
  ).json().sequence;
  unattested = (
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: `open-${RUN}`, body: 'An open handle speaks.' },
    })
  ).json().sequence;
});
afterAll(async () => t?.close());

describe('POST /steward/lesson', () => {
  it('starts empty: /api/hive/lessons lists nothing, with what learning excludes as counts only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/hive/lessons', headers: json() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      schema: 'civitas.lessons.v1',
      total: 0,
      lessons: [],
      excluded_from_learning: { held: 1, unattested: 1 },
    });
    expect(res.body).not.toContain(`casino bonus ${RUN}`);
  });

  it('records lessons from non-quarantined imprints with a receipt; the list is newest first, in HTTP and MCP alike', async () => {
    const first = await lesson({
      title: 'Patience',
      body: 'Threads that wait get better answers.',
      from: [attested[0], attested[1], attested[0]],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().lesson).toMatchObject({ title: 'Patience', sources: [attested[0], attested[1]] });
    t.clock.advance(1000);
    const second = await lesson({
      title: 'Brevity',
      body: 'Short imprints travel further.',
      from: [attested[2]],
    });
    expect(second.statusCode).toBe(200);
    const receiptId = second.json().lesson.receipt_id;
    const [receipt] = await t.database.db.query<{ step: string; subject: string }>(
      'select step, subject from receipts where id = $1',
      [receiptId],
    );
    expect(receipt).toEqual({ step: 'steward.lesson', subject: `lesson:${second.json().lesson.id}` });

    const listed = (await t.app.inject({ method: 'GET', url: '/api/hive/lessons', headers: json() })).json();
    expect(listed.total).toBe(2);
    expect(listed.lessons.map((l: { title: string }) => l.title)).toEqual(['Brevity', 'Patience']);
    expect(listed.lessons[0]).toEqual({
      id: second.json().lesson.id,
      title: 'Brevity',
      body: 'Short imprints travel further.',
      sources: [attested[2]],
      recorded_at: expect.any(String),
      receipt_id: receiptId,
    });
    expect(JSON.stringify(listed)).not.toContain(steward.id);

    const tool = MCP_TOOLS.find((candidate) => candidate.name === 'civitas_lessons');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    const viaMcp = (await tool!.handler({ limit: 50 }, t.app.civitas)) as typeof listed;
    expect(viaMcp.lessons).toEqual(listed.lessons);
    const limited = (
      await t.app.inject({ method: 'GET', url: '/api/hive/lessons?limit=1', headers: json() })
    ).json();
    expect(limited.lessons).toHaveLength(1);
  });

  it('refuses held, unattested and unknown sources, naming each one', async () => {
    const res = await lesson({
      title: 'Bad',
      body: 'From the wrong places.',
      from: [attested[0], held, unattested, 99_999_999],
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ reason: 'invalid_request' });
    expect(body.offending).toEqual(
      [
        { sequence: held, problem: 'held' },
        { sequence: unattested, problem: 'unattested' },
        { sequence: 99_999_999, problem: 'not_found' },
      ].sort((a, b) => a.sequence - b.sequence),
    );
    expect(body.issues[0].path).toBe('from');
    expect(body.issues[0].message).toContain(`#${held}`);
    expect(body.issues[0].message).toContain(`#${unattested}`);
    expect(body.body).toBeUndefined();
    expect(res.body).not.toContain(`casino bonus ${RUN}`);
  });

  it('validates title, body and from', async () => {
    for (const payload of [
      {},
      { title: '', body: 'x', from: [attested[0]] },
      { title: 't', body: '', from: [attested[0]] },
      { title: 't', body: 'b'.repeat(2001), from: [attested[0]] },
      { title: 't'.repeat(201), body: 'b', from: [attested[0]] },
      { title: 't', body: 'b' },
      { title: 't', body: 'b', from: [] },
      { title: 't', body: 'b', from: ['abc'] },
      { title: 't', body: 'b', from: [1.5] },
      { title: 't', body: 'b', from: [-1] },
      { title: 't', body: 'b', from: Array.from({ length: 51 }, (_, i) => i + 1) },
      { title: { a: 1 }, body: 'b', from: [attested[0]] },
    ]) {
      const res = await lesson(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
    expect((await lesson({ title: 't', body: 'b'.repeat(2000), from: [attested[0]] })).statusCode).toBe(200);
  });

  it('accepts a form (comma-separated sources) and answers 303 to a local page; refuses off-origin targets', async () => {
    const headers = {
      cookie: steward.cookie,
      origin: TEST_ORIGIN,
      'content-type': 'application/x-www-form-urlencoded',
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/steward/lesson',
      headers,
      payload: `title=Form&body=From+a+form&from=${attested[0]}%2C+${attested[1]}`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/operator\?lesson=lsn_/);
    const off = await t.app.inject({
      method: 'POST',
      url: '/steward/lesson',
      headers,
      payload: `title=Form&body=b&from=${attested[0]}&return_to=https%3A%2F%2Fevil.example`,
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().reason).toBe('off_origin_target');
    const cross = await t.app.inject({
      method: 'POST',
      url: '/steward/lesson',
      headers: { ...headers, origin: 'https://evil.example' },
      payload: `title=Form&body=b&from=${attested[0]}`,
    });
    expect(cross.statusCode).toBe(403);
  });

  it('refuses anonymous callers and non-stewards', async () => {
    expect((await lesson({ title: 't', body: 'b', from: [attested[0]] }, '')).statusCode).toBe(401);
    expect((await lesson({ title: 't', body: 'b', from: [attested[0]] }, author.cookie)).statusCode).toBe(
      403,
    );
  });
});

describe('/operator and /dashboard', () => {
  it('give a steward the overview: queues, data requests, denials, census', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/imprint/report',
      headers: json(),
      payload: { sequence: attested[0], reason: 'other' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/settings/data/request',
      headers: { ...json(author.cookie), origin: TEST_ORIGIN },
      payload: { kind: 'export' },
    });
    const res = await t.app.inject({ method: 'GET', url: '/operator', headers: json(steward.cookie) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-robots-tag']).toContain('noindex');
    const body = res.json();
    expect(body).toMatchObject({
      ok: true,
      schema: 'civitas.operator.v1',
      steward: { tag: steward.tag },
      queues: {
        held_untriaged: 1,
        kept_held: 0,
        open_reports: 1,
        data_requests_pending: { export: 1, erasure: 0, total: 1 },
      },
      census: { total_boundaries: 23 },
    });
    expect(typeof body.census.all_bound).toBe('boolean');
    expect(body.denials.total).toBeGreaterThanOrEqual(0);
    expect(body.lessons.active).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(body)).not.toContain(steward.id);
    expect(JSON.stringify(body)).not.toContain(author.id);

    const alias = await t.app.inject({ method: 'GET', url: '/dashboard', headers: json(steward.cookie) });
    expect(alias.statusCode).toBe(200);
    expect(alias.json().queues).toEqual(body.queues);
  });

  it("counts a stranger's refused visit as a denial the next overview shows", async () => {
    const before = (
      await t.app.inject({ method: 'GET', url: '/operator', headers: json(steward.cookie) })
    ).json().denials.total;
    expect(
      (await t.app.inject({ method: 'GET', url: '/operator', headers: json(author.cookie) })).statusCode,
    ).toBe(403);
    const after = (
      await t.app.inject({ method: 'GET', url: '/operator', headers: json(steward.cookie) })
    ).json().denials.total;
    expect(after).toBe(before + 1);
  });
});
