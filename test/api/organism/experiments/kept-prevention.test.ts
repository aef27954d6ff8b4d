import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organismJobs } from '../../../../api/organism/jobs.ts';
import { preventionFindings } from '../../../../api/organism/experiments/prevention.ts';
import { BURST_LIMIT } from '../../../../shared/record/gate.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';

/**
 * The prevention experiment's findings are kept by the `organism.observatory` job (issue 20): a
 * request reads the stored answer, and after writes and a job run it equals the full computation.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => t?.close());

const { get: json, post } = requests(() => t.app);
const job = () => {
  const found = organismJobs.find((j) => j.name === 'organism.observatory');
  if (!found) throw new Error('no organism.observatory job');
  return found;
};

describe('the kept prevention findings', () => {
  it('equal the full computation after writes and a job run, with the as_of of their computation', async () => {
    t.clock.set('2026-12-11T10:00:05.000Z');
    const first = (await json('/api/experiments/prevention')).json();
    expect(first.findings.verdict).toBe('no_bursts_seen');
    expect(first.as_of).toBe(first.findings.to);

    // A burst: the gate accepts BURST_LIMIT in its window and holds the next.
    t.clock.advance(1_000);
    for (let i = 0; i <= BURST_LIMIT; i++) {
      const res = await post('/api/agent/imprint', {
        agent: 'kept-flood-tester',
        body: `kept flood body number ${i} with its own words ${i * 11}`,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Until the job runs, a request reads the kept answer, not a recomputation.
    const stale = (await json('/api/experiments/prevention')).json();
    expect(stale.findings).toEqual(first.findings);
    expect(stale.as_of).toBe(first.as_of);

    t.clock.advance(60_000);
    await job().run(t.app.civitas, t.app);
    const kept = (await json('/api/experiments/prevention')).json();
    const full = await preventionFindings(t.app.civitas);
    expect(kept.findings).toEqual(full);
    expect(kept.as_of).toBe(t.clock.now().toISOString());
    expect(kept.findings.held_burst).toBe(1);
    expect(kept.findings.accepted).toBe(BURST_LIMIT);
    expect(kept.findings.verdict).toBe('prevented');
    // The observatory's instrument reads the same kept findings.
    const instruments: { key: string; reading: unknown }[] = (await json('/api/observatory')).json()
      .instruments;
    expect(instruments.find((i) => i.key === 'prevention')?.reading).toEqual({
      verdict: 'prevented',
      held_burst: 1,
      flood_minutes: 0,
    });
  });
});
