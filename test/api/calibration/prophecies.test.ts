import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { MCP_TOOLS } from '../../../api/families.ts';
import { resolveDue } from '../../../api/calibration/job.ts';
import { brierScore, logScore, reliabilityDiagram, seasonOf } from '../../../shared/calibration/scores.ts';
import { requests } from '../../helpers/http.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
let ada: TestSovereign;
let ben: TestSovereign;
let humans: number;
beforeAll(async () => {
  t = await createTestApp();
  ada = await signedInSovereign(t.app, { callsign: 'Ada' });
  ben = await signedInSovereign(t.app);
  humans = 2;
});
afterAll(async () => t?.close());

const DAY = 86_400_000;
const { get, post } = requests(() => t.app);
const prophesy = async (who: TestSovereign, body: Record<string, unknown>) => {
  const res = await post('/sovereign/prophecy', { due_in_days: 1, ...body }, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().prophecy_id as string;
};

describe('pure arithmetic', () => {
  it('Brier and log scores of a hand-computed set; empty sets score null', () => {
    const set = [
      { probability: 0.8, outcome: true },
      { probability: 0.3, outcome: false },
      { probability: 0.1, outcome: false },
      { probability: 0.6, outcome: true },
    ];
    // (0.2² + 0.3² + 0.1² + 0.4²) / 4 = (0.04 + 0.09 + 0.01 + 0.16) / 4 = 0.075
    expect(brierScore(set)).toBeCloseTo(0.075, 12);
    // (ln 0.8 + ln 0.7 + ln 0.9 + ln 0.6) / 4 = ln(0.3024) / 4
    expect(logScore(set)).toBeCloseTo(Math.log(0.3024) / 4, 12);
    expect(brierScore([])).toBeNull();
    expect(logScore([])).toBeNull();
    expect(at(reliabilityDiagram([{ probability: 0.99, outcome: true }]), 9).count).toBe('fewer than 5');
    expect(seasonOf(new Date('2026-11-22T12:00:00Z'))).toEqual({
      season: '2026-Q4',
      start: new Date('2026-10-01T00:00:00Z'),
      end: new Date('2027-01-01T00:00:00Z'),
    });
    expect(seasonOf(new Date('2027-01-01T00:00:00Z')).season).toBe('2027-Q1');
  });
});

describe('prophecy lifecycle with a moved clock', () => {
  const ids: string[] = [];

  it('starts empty: no scores, ten bins of "fewer than 5"', async () => {
    const view = (await get('/api/calibration')).json();
    expect(view).toMatchObject({
      ok: true,
      open: 0,
      overall: { count: 0, brier_score: null, log_score: null },
    });
    expect(view.scope).toContain('does not establish accuracy for any outside decision');
    expect(view.overall.reliability).toHaveLength(10);
    for (const bin of view.overall.reliability)
      expect(bin).toMatchObject({ count: 'fewer than 5', mean_probability: null, observed_frequency: null });
  });

  it('refuses malformed prophecies with invalid_request and anonymous callers with 401', async () => {
    const good = { metric: 'humans', comparator: 'gte', threshold: 1, probability: 0.5, due_in_days: 1 };
    const bad = [
      {},
      { ...good, metric: 'weather' },
      { ...good, comparator: '>' },
      { ...good, threshold: -1 },
      { ...good, threshold: 1.5 },
      { ...good, probability: 0 },
      { ...good, probability: 1 },
      { ...good, probability: 0.005 },
      { ...good, probability: 'likely' },
      { ...good, due_in_days: 0 },
      { ...good, due_in_days: 366 },
      { ...good, due_in_days: undefined },
      { ...good, due_in_days: undefined, due_at: 'tomorrow' },
      { ...good, due_in_days: undefined, due_at: '2026-11-22T18:00:00Z' },
      { ...good, due_in_days: undefined, due_at: '2028-01-01' },
      { ...good, due_at: '2026-12-01' },
    ];
    for (const payload of bad) {
      const res = await post('/sovereign/prophecy', payload, ada);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
    expect((await post('/sovereign/prophecy', good)).statusCode).toBe(401);
    expect(await t.database.db.query('select id from prophecies')).toEqual([]);
  });

  it('records prophecies with receipts; nothing resolves before the due time', async () => {
    ids.push(await prophesy(ada, { metric: 'humans', comparator: '≥', threshold: humans, probability: 0.8 })); // true
    ids.push(
      await prophesy(ada, { metric: 'humans', comparator: 'gte', threshold: humans + 100, probability: 0.3 }),
    ); // false
    ids.push(await prophesy(ada, { metric: 'humans', comparator: '<', threshold: humans, probability: 0.1 })); // false
    ids.push(
      await prophesy(ada, {
        metric: 'humans',
        comparator: 'lt',
        threshold: humans + 100,
        probability: '0.6',
      }),
    ); // true
    const receipts = await t.database.db.query<{ step: string }>(
      `select step from receipts where subject like 'prophecy:%'`,
    );
    expect(receipts.map((r) => r.step)).toEqual(Array(4).fill('calibration.prophecy'));
    t.clock.advance(DAY - 60_000);
    expect(await resolveDue(t.app.civitas)).toEqual({ ran: true, resolved: [] });
    const view = (await get('/prophecy')).json();
    expect(view.open.map((p: { id: string }) => p.id).sort()).toEqual([...ids].sort());
    expect(view.open[0]).toMatchObject({
      status: 'open',
      forecaster: { kind: 'sovereign', ref: `sovereign:${ada.tag}` },
      outcome: null,
    });
    expect(JSON.stringify(view)).not.toContain(ada.id);
  });

  it('resolves once at the due time from the metric as it stood then (later arrivals do not count)', async () => {
    t.clock.advance(2 * 60_000);
    for (let i = 0; i < 3; i++) await signedInSovereign(t.app); // after the due time: not counted
    const first = await resolveDue(t.app.civitas);
    expect(first.ran).toBe(true);
    expect(first.resolved.map((r) => [r.id, r.observed, r.outcome])).toEqual(
      [
        [ids[0], humans, true],
        [ids[1], humans, false],
        [ids[2], humans, false],
        [ids[3], humans, true],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(await resolveDue(t.app.civitas)).toEqual({ ran: true, resolved: [] });
    const resolveReceipts = await t.database.db.query<{ id: string }>(
      `select id from receipts where step = 'calibration.resolve'`,
    );
    expect(resolveReceipts).toHaveLength(4);
    const receipt = (await get(`/api/receipt/${at(resolveReceipts, 0).id}`)).json();
    expect(receipt.change_status.status).toMatch(/^(came_true|did_not_come_true)$/);
  });

  it('scores exactly: Brier 0.075 and log ln(0.3024)/4, by forecaster kind; MCP is the same projection', async () => {
    const view = (await get('/api/calibration')).json();
    expect(view.overall.count).toBe(4);
    expect(view.overall.brier_score).toBeCloseTo(0.075, 6);
    expect(view.overall.log_score).toBeCloseTo(Math.log(0.3024) / 4, 6);
    expect(view.by_forecaster.sovereigns).toEqual(view.overall);
    expect(view.by_forecaster.service).toMatchObject({ count: 0, brier_score: null });
    const tool = MCP_TOOLS.find((tool) => tool.name === 'civitas_calibration')!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(await tool.handler({}, t.app.civitas)).toEqual({ ...view, as_of: expect.any(String) });
    expect((await get('/calibration')).json()).toEqual({ ...view, as_of: expect.any(String) });
  });

  it('reliability bins under 5 read "fewer than 5" with no figures; a bin of 5 shows its frequency', async () => {
    let view = (await get('/api/calibration')).json();
    for (const bin of view.overall.reliability) expect(bin.count).toBe('fewer than 5');
    // five at 0.75: three come true (humans ≥ current), two do not (humans ≥ current + 100)
    const [{ n } = missing()] = await t.database.db.query<{ n: string }>(
      'select count(*) as n from sovereigns',
    );
    for (let i = 0; i < 5; i++)
      await prophesy(ben, {
        metric: 'humans',
        comparator: 'gte',
        threshold: i < 3 ? Number(n) : Number(n) + 100,
        probability: 0.75,
      });
    t.clock.advance(DAY + 60_000);
    expect((await resolveDue(t.app.civitas)).resolved).toHaveLength(5);
    view = (await get('/api/calibration')).json();
    expect(view.overall.reliability[7]).toEqual({
      from: 0.7,
      to: 0.8,
      count: 5,
      mean_probability: 0.75,
      observed_frequency: 0.6,
    });
    expect(view.overall.reliability[8]).toEqual({
      from: 0.8,
      to: 0.9,
      count: 'fewer than 5',
      mean_probability: null,
      observed_frequency: null,
    });
    expect(view.overall.count).toBe(9);
  });

  it('resolves each prophecy once across two concurrent job runs', async () => {
    const made: string[] = [];
    for (let i = 0; i < 6; i++)
      made.push(
        await prophesy(ben, { metric: 'receipts', comparator: 'gte', threshold: i, probability: 0.5 }),
      );
    t.clock.advance(DAY + 60_000);
    const [a, b] = await Promise.all([resolveDue(t.app.civitas), resolveDue(t.app.civitas)]);
    const all = [...a.resolved, ...b.resolved].map((r) => r.id).sort();
    expect(all).toEqual([...made].sort());
    const receipts = await t.database.db.query(
      `select subject from receipts where step = 'calibration.resolve' and subject = any($1::text[])`,
      [made.map((id) => `prophecy:${id}`)],
    );
    expect(receipts).toHaveLength(6);
  });

  it('cards: an open claim, its answer (404 until answered), unknown ids 404; calibration and prophecy cards', async () => {
    const open = await prophesy(ben, { metric: 'agents', comparator: 'gte', threshold: 1, probability: 0.4 });
    const card = await t.app.inject({ method: 'GET', url: `/almanac/claim/${open}/card.svg` });
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toContain('image/svg+xml');
    expect(
      (await t.app.inject({ method: 'GET', url: `/almanac/claim/${open}/answered.svg` })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/almanac/claim/${ids[0]}/answered.svg` })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/almanac/claim/pro_01J00000000000000000000000/card.svg' }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/almanac/claim/nonsense/card.svg' })).statusCode).toBe(
      404,
    );
    for (const url of ['/calibration/card.svg', '/prophecy/card.svg', '/almanac/card.svg']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<svg');
    }
  });
});
