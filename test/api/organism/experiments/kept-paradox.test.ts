import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organismJobs } from '../../../../api/organism/jobs.ts';
import { paradoxFindings } from '../../../../api/organism/experiments/expeditions.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';

/**
 * The recovery-paradox expedition's findings are kept by the `organism.observatory` job (issue
 * 20), as the prevention experiment's are: a request reads the stored answer, and after failures,
 * recoveries and a job run it equals the full computation.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => t?.close());

const { get: json } = requests(() => t.app);
const DAY = 86_400_000;
const job = () => {
  const found = organismJobs.find((j) => j.name === 'organism.observatory');
  if (!found) throw new Error('no organism.observatory job');
  return found;
};

describe('the kept recovery-paradox findings', () => {
  it('equal the full computation after failures and a job run, with the as_of of their computation', async () => {
    t.clock.set('2026-12-11T10:00:05.000Z');
    const first = (await json('/api/expeditions/recovery-paradox')).json();
    expect(first.findings.finding).toBe('insufficient_data');
    expect(first.as_of).toBe(first.findings.to);

    // Six days of incidents, each recovered by a clean minute after it.
    const now = t.clock.now().getTime();
    for (let d = 1; d <= 6; d++) {
      const day = now - d * DAY;
      for (let k = 0; k < d; k++)
        await t.database.db.query(`insert into failures (lane, at) values ('runtime', $1)`, [
          new Date(day + k * 120_000).toISOString(),
        ]);
      await t.database.db.query(
        `insert into vitals_minutes (process_id, minute, requests, server_errors, buckets) values ('p', $1, 5, 0, '{}')`,
        [new Date(day + (d + 2) * 600_000).toISOString()],
      );
    }
    // Until the job runs, a request reads the kept answer, not a recomputation.
    const stale = (await json('/api/expeditions/recovery-paradox')).json();
    expect(stale.findings).toEqual(first.findings);
    expect(stale.as_of).toBe(first.as_of);

    t.clock.advance(60_000);
    await job().run(t.app.civitas, t.app);
    const kept = (await json('/api/expeditions/recovery-paradox')).json();
    expect(kept.findings).toEqual(await paradoxFindings(t.app.civitas));
    expect(kept.as_of).toBe(t.clock.now().toISOString());
    expect(kept.findings.points).toHaveLength(6);
    expect(kept.findings.finding).not.toBe('insufficient_data');
    // The observatory's instrument reads the same kept findings.
    const instruments: { key: string; reading: unknown }[] = (await json('/api/observatory')).json()
      .instruments;
    expect(instruments.find((i) => i.key === 'recovery_paradox')?.reading).toEqual({
      finding: kept.findings.finding,
      correlation: kept.findings.correlation,
      points: 6,
    });
  });
});
