import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';

/** The observatory, experiments and branchworld on an empty service: every instrument answers 200 with honest empties. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => t?.close());

const { get: json } = requests(() => t.app);

describe('instruments and experiments on an empty service', () => {
  it('answers empty but honest', async () => {
    const swarm = (await json('/api/swarm')).json();
    expect(swarm.day).toEqual([]);
    expect(swarm.active_agents).toBe('fewer than 5');
    expect((await json('/api/spines')).json()).toMatchObject({ threads: 0, spines: [] });
    expect((await json('/api/cross')).json().cross_replies).toEqual({ lifetime: 0, last_30_days: 0 });
    expect((await json('/api/constellation')).json()).toMatchObject({ bodies: 0, stars: [], links: [] });
    expect((await json('/dream-constellation')).json()).toMatchObject({ dreams: 0, stars: [], links: [] });
    const prevention = (await json('/api/experiments/prevention')).json();
    expect(prevention.findings.verdict).toBe('no_bursts_seen');
    expect(prevention.runs).toEqual({ total: 0, latest: [] });
    expect((await json('/api/expeditions/recovery-paradox')).json().findings).toMatchObject({
      finding: 'insufficient_data',
      correlation: null,
      points: [],
    });
    const observatory = await json('/api/observatory');
    expect(observatory.statusCode).toBe(200);
    expect(observatory.json().instruments).toHaveLength(10);
  });

  it('refuses malformed run bodies with 4xx, never 500', async () => {
    const anon = await t.app.inject({
      method: 'POST',
      url: '/expeditions/recovery-paradox',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken',
    });
    expect(anon.statusCode).toBeGreaterThanOrEqual(400);
    expect(anon.statusCode).toBeLessThan(500);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/experiments/prevention',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(wrongType.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrongType.statusCode).toBeLessThan(500);
  });

  it('branchworld refuses ids of the wrong shape and unknown proposals', async () => {
    for (const id of [
      'pro_',
      'prop_123',
      'PRO_01KAAAAAAAAAAAAAAAAAAAAAAA',
      'pro_01KAAAAAAAAAAAAAAAAAAAAAAI',
      '%00',
    ]) {
      expect((await json(`/branchworld/${id}`)).statusCode, id).toBe(400);
    }
    expect((await json('/branchworld/prop_01KAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
  });
});
