import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { recordSeasonPredictions, resolveDue, runCalibrationJob } from '../../../api/calibration/job.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let ada: TestSovereign;
let ben: TestSovereign;

const DAY = 86_400_000;
const { get, post } = requests(() => t.app);
const prophesy = async (who: TestSovereign, body: Record<string, unknown>) => {
  const res = await post('/sovereign/prophecy', { due_in_days: 1, ...body }, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().prophecy_id as string;
};

beforeAll(async () => {
  t = await createTestApp();
  ada = await signedInSovereign(t.app, { callsign: 'Ada' });
  ben = await signedInSovereign(t.app);
  // Given (as in prophecies.test.ts): four prophecies of Ada's that lean the right way, resolved.
  const humans = 2;
  for (const body of [
    { comparator: 'gte', threshold: humans, probability: 0.8 }, // true
    { comparator: 'gte', threshold: humans + 100, probability: 0.3 }, // false
    { comparator: 'lt', threshold: humans, probability: 0.1 }, // false
    { comparator: 'lt', threshold: humans + 100, probability: 0.6 }, // true
  ])
    await prophesy(ada, { metric: 'humans', ...body });
  t.clock.advance(DAY + 60_000);
  expect((await resolveDue(t.app.civitas)).resolved).toHaveLength(4);
});
afterAll(async () => t?.close());

describe('the service prophesies each season', () => {
  it('records one prophecy per metric per season, due at season end; repeated runs add none', async () => {
    const first = await recordSeasonPredictions(t.app.civitas);
    expect(first).toMatchObject({ ran: true, season: '2026-Q4' });
    expect(first.made).toHaveLength(4);
    expect((await runCalibrationJob(t.app.civitas)).season.made).toEqual([]);
    const rows = await t.database.db.query<{ metric: string; due_at: Date; basis: string }>(
      `select metric, due_at, basis from prophecies where forecaster_kind = 'service'`,
    );
    expect(rows.map((r) => r.metric).sort()).toEqual(['agents', 'humans', 'imprints_lifetime', 'receipts']);
    for (const row of rows) expect(new Date(row.due_at).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    const view = (await get('/prophecy')).json();
    expect(
      view.open.filter((p: { forecaster: { kind: string } }) => p.forecaster.kind === 'service'),
    ).toHaveLength(4);
    t.clock.set('2027-01-01T00:30:00.000Z');
    const run = await runCalibrationJob(t.app.civitas);
    expect(run.season).toMatchObject({ ran: true, season: '2027-Q1' });
    expect(run.resolved.resolved.length).toBeGreaterThanOrEqual(4);
    const calibration = (await get('/api/calibration')).json();
    expect(calibration.by_forecaster.service.count).toBe(4);
  });
});

describe('pacts, stakes, almanac and feeds', () => {
  let pact: string;
  let dana: TestSovereign;
  let eve: TestSovereign;
  it('makes a pact (receipt) and takes stakes from others: once each, never on your own', async () => {
    // the clock moved past the earlier sessions' 30-day lifetime: sign in afresh
    dana = await signedInSovereign(t.app);
    eve = await signedInSovereign(t.app);
    const res = await post(
      '/sovereign/pact',
      { title: 'Write the onboarding guide', stake: 10, due_in_days: 7 },
      dana,
    );
    expect(res.statusCode).toBe(200);
    pact = res.json().pact_id;
    expect(pact).toMatch(/^pact_/);
    expect((await post('/sovereign/pact/stake', { pact, points: 5 }, dana)).statusCode).toBe(409);
    const stake = await post('/sovereign/pact/stake', { pact, points: 5, side: 'broken' }, eve);
    expect(stake.statusCode).toBe(200);
    expect(stake.json()).toMatchObject({ side: 'broken', points: 5 });
    expect((await post('/sovereign/pact/stake', { pact, points: 5 }, eve)).statusCode).toBe(409);
    expect(
      (await post('/sovereign/pact/stake', { pact: 'pact_01J00000000000000000000000', points: 5 }, eve))
        .statusCode,
    ).toBe(404);
    for (const payload of [
      { pact, points: 0 },
      { pact, points: 1001 },
      { pact, points: 5, side: 'maybe' },
      { pact: 'x', points: 1 },
    ]) {
      expect((await post('/sovereign/pact/stake', payload, eve)).statusCode).toBe(400);
    }
    for (const payload of [
      { title: '', stake: 1, due_in_days: 1 },
      { title: 'x', stake: 0, due_in_days: 1 },
      { title: 'x', stake: 1 },
    ]) {
      expect((await post('/sovereign/pact', payload, dana)).statusCode).toBe(400);
    }
    expect((await post('/sovereign/pact', { title: 'x', stake: 1, due_in_days: 1 })).statusCode).toBe(401);
    const stakes = await t.database.db.query(`select 1 from receipts where step = 'calibration.stake'`);
    expect(stakes).toHaveLength(1);
  });

  it('the almanac lists what comes due by date; its feeds and the personal due feed carry it', async () => {
    const almanac = (await get('/almanac')).json();
    expect(almanac.season.name).toBe('2027-Q1');
    const mine = almanac.pacts.open.find((p: { id: string }) => p.id === pact);
    expect(mine).toMatchObject({
      status: 'open',
      stake: 10,
      stakes: { kept: 0, broken: 5, stakers: 1 },
      author: { ref: `sovereign:${dana.tag}` },
    });
    const dues = almanac.due.map((d: { due_at: string }) => d.due_at);
    expect(dues).toEqual([...dues].sort());
    const text = JSON.stringify(almanac);
    expect(text).not.toContain(ada.id);
    expect(text).not.toContain(ben.id);
    expect(text).not.toContain(dana.id);
    expect(text).not.toContain(eve.id);
    const ics = await t.app.inject({ method: 'GET', url: '/almanac.ics' });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toContain('text/calendar');
    expect(ics.body).toContain(`${pact}@civitas`);
    const atom = await t.app.inject({ method: 'GET', url: '/almanac.xml' });
    expect(atom.headers['content-type']).toContain('application/atom+xml');
    expect(atom.body).toContain('Came true');
    const due = await t.app.inject({
      method: 'GET',
      url: '/sovereign/due.xml',
      headers: { cookie: eve.cookie },
    });
    expect(due.statusCode).toBe(200);
    expect(due.body).toContain('A pact you staked on comes due');
    const streaks = await t.app.inject({ method: 'GET', url: '/streaks.xml' });
    expect(streaks.statusCode).toBe(200);
    expect(streaks.body).toContain(`sovereign:${ada.tag}: 4 prophecies leaning right in a row`);
    expect(streaks.body).not.toContain(ada.id);
  });

  it('a pact past its due date awaits its author and takes no more stakes', async () => {
    t.clock.advance(8 * DAY);
    const carl = await signedInSovereign(t.app);
    expect((await post('/sovereign/pact/stake', { pact, points: 1 }, carl)).statusCode).toBe(409);
    const almanac = (await get('/almanac')).json();
    expect(almanac.pacts.open.find((p: { id: string }) => p.id === pact).status).toBe('awaiting_author');
  });
});
