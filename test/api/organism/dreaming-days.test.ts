/**
 * Issue 19: one dream per UTC day, covering exactly that day and made once it is over, whatever
 * time the job runs; days missed while the job did not run are dreamt in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dreamJob } from '../../../api/organism/themes/dreaming.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { agentImprint } from '../../helpers/builders.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(); // the clock reads 2026-11-22T12:00Z
});
afterAll(async () => t?.close());

const dreams = () =>
  t.database.db.query<{ date: string; window_start: Date | string; window_end: Date | string }>(
    "select to_char(date, 'YYYY-MM-DD') as date, window_start, window_end from dreams order by date",
  );

describe('dreams', () => {
  it('are made per UTC day, after it, and missed days are caught up', async () => {
    expect(await dreamJob(t.app.civitas)).toMatchObject({ made: true, dates: ['2026-11-21'] });
    t.clock.set('2026-11-23T23:30:00.000Z');
    await agentImprint(t.app, 'night-owl', 'lanterns lanterns at midnight');
    await agentImprint(t.app, 'night-owl-2', 'lanterns again before midnight');
    // The job does not run for two days; then it runs just after midnight.
    t.clock.set('2026-11-25T00:05:00.000Z');
    expect((await dreamJob(t.app.civitas)).dates).toEqual(['2026-11-22', '2026-11-23', '2026-11-24']);
    expect(await dreamJob(t.app.civitas)).toMatchObject({ made: false, dates: [] });
    const kept = await dreams();
    expect(kept.map((d) => d.date)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24']);
    for (const d of kept) {
      expect(new Date(d.window_start).toISOString()).toBe(`${d.date}T00:00:00.000Z`);
      expect(new Date(d.window_end).getTime() - new Date(d.window_start).getTime()).toBe(86_400_000);
    }
  });
});
