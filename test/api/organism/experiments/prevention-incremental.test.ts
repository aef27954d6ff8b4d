/**
 * The prevention experiment's counts on the incremental path (migration 0082, docs/scale.md): a
 * job run takes in only the imprints written since the last, and counts again only the days whose
 * counted rows changed; tampering with a counted imprint (an update, a delete, an insert below the
 * cursor) turns the finding red at the next run — in the experiment and in the observatory, which
 * the same run keeps — and the operator's whole count finds a change the triggers did not see.
 * After every step the kept findings equal the count from the rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organismJobs } from '../../../../api/organism/jobs.ts';
import { preventionFindings } from '../../../../api/organism/experiments/prevention.ts';
import { countPrevention } from '../../../../api/organism/experiments/prevention-counts.ts';
import { BURST_LIMIT } from '../../../../shared/record/gate.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';
import { firstOf } from '../../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => t?.close());

const { get: json, post } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

type Coverage = { folded: number; recounted_days: string[]; whole: boolean; through_sequence: number };

/** One run of the job that keeps the findings (a minute later: the job claims its view per interval). */
async function run(): Promise<{ findings: Record<string, unknown>; coverage: Coverage }> {
  t.clock.advance(60_000);
  const job = organismJobs.find((j) => j.name === 'organism.observatory');
  await job?.run(t.app.civitas, t.app);
  const { coverage } = firstOf(
    await sql<{ coverage: Coverage }>(`select coverage from kept_views where name = 'experiment:prevention'`),
  );
  const findings = (await json('/api/experiments/prevention')).json().findings;
  // What the kept counts say is what the rows say.
  expect(findings).toEqual(await preventionFindings(t.app.civitas));
  return { findings, coverage };
}

async function imprint(agent: string, body: string) {
  const res = await post('/api/agent/imprint', { agent, body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { sequence: number; held?: boolean };
}

describe('the prevention counts on the incremental path', () => {
  it('take in only what is new, and show tampering at the next run', async () => {
    t.clock.set('2026-12-11T10:00:05.000Z');
    const first = await run();
    expect(first.coverage.whole).toBe(true);

    // A burst: the gate accepts BURST_LIMIT in its window and holds the next.
    const burst = [];
    for (let i = 0; i <= BURST_LIMIT; i++)
      burst.push(await imprint('incremental-flooder', `incremental burst ${i} with words ${i * 13}`));
    const held = burst.at(-1)!;
    expect(held.held).toBe(true);
    const prevented = await run();
    expect(prevented.coverage).toMatchObject({ whole: false, folded: BURST_LIMIT + 1, recounted_days: [] });
    expect(prevented.findings).toMatchObject({ verdict: 'prevented', held_burst: 1, flood_minutes: 0 });

    // Three more imprints: the next run takes in those three and counts no day again.
    for (let i = 0; i < 3; i++) await imprint(`incremental-writer-${i}`, `an ordinary thought ${i}`);
    const quiet = await run();
    expect(quiet.coverage).toMatchObject({ folded: 3, recounted_days: [] });
    expect(quiet.coverage.through_sequence).toBe(prevented.coverage.through_sequence + 3);

    // Tampering with a counted imprint: the held one released behind the service's back.
    const day = '2026-12-11';
    await sql(`update imprints set held = false, held_reason = null where sequence = $1`, [held.sequence]);
    const released = await run();
    expect(released.coverage).toMatchObject({ folded: 0, recounted_days: [day] });
    expect(released.findings).toMatchObject({
      verdict: 'floods_got_through',
      held_burst: 0,
      flood_minutes: 1,
    });

    // A counted imprint removed: the minute is no flood any more.
    const [removed] = await sql(`delete from imprints where sequence = $1 returning *`, [burst[0]!.sequence]);
    const gone = await run();
    expect(gone.coverage.recounted_days).toEqual([day]);
    expect(gone.findings).toMatchObject({ verdict: 'no_bursts_seen', flood_minutes: 0 });

    // And put back below the cursor: counted again, the flood is back.
    const columns = Object.keys(removed!).filter((c) => !c.startsWith('search'));
    await sql(
      `insert into imprints (${columns.join(', ')}) select ${columns.join(', ')} from json_populate_record(null::imprints, $1::json)`,
      [JSON.stringify(removed)],
    );
    const back = await run();
    expect(back.coverage.recounted_days).toEqual([day]);
    expect(back.findings).toMatchObject({ verdict: 'floods_got_through', flood_minutes: 1 });
  }, 120_000);

  it("the operator's whole count finds a change the triggers did not see", async () => {
    const before = (await run()).findings;
    await sql('alter table imprints disable trigger imprints_prevention_changed');
    await sql(`update imprints set held = true, held_reason = 'burst' where author_ref = 'incremental-flooder'
      and sequence = (select max(sequence) from imprints where author_ref = 'incremental-flooder')`);
    await sql('alter table imprints enable trigger imprints_prevention_changed');
    const unseen = await countPrevention(t.app.civitas);
    expect(unseen.recounted).toEqual([]);
    expect((await json('/api/experiments/prevention')).json().findings).toEqual(before);

    const whole = await countPrevention(t.app.civitas, { whole: true });
    expect(whole).toMatchObject({ whole: true, differed: ['2026-12-11'] });
    const after = (await run()).findings;
    expect(after).toMatchObject({ verdict: 'prevented', held_burst: 1, flood_minutes: 0 });
  }, 60_000);
});
