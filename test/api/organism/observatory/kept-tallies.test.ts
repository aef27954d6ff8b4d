/**
 * The rows kept as imprints and arrivals are written (migrations 0062–0064, 0066: imprints by hour and
 * day, replies across kinds, arrivals, reply threads, resonance, replies per imprint) equal what the old full
 * computations over every row give, after mixed writes: replies across kinds and days, held
 * replies and held parents, holds released, a quarantine released, threads merged by a release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';
import { refreshKept } from '../../../../api/db/kept-views.ts';
import { keptSwarm } from '../../../../api/organism/observatory/swarm.ts';
import { keptObservatory } from '../../../../api/organism/observatory/observatory.ts';
import { storySoFar, timeLens } from '../../../../api/chronicle/story.ts';
import { at } from '../../../helpers/elements.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

let t: TestApp;
const DAY = 86_400_000;
const START = Date.parse('2026-10-01T10:30:00.000Z');
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);
const { get: json } = requests(() => t.app);

interface Draft {
  author: string;
  sovereign?: boolean;
  replyTo?: number | null;
  held?: boolean;
  unattested?: boolean;
  at: number;
}
async function write(d: Draft): Promise<number> {
  const { sequence } = await t.database.db.transaction((tx) =>
    appendImprint(
      tx,
      imprintDraft({
        kind: at(['thought', 'question', 'signal'] as const, d.at % 3),
        body: `words ${d.at}`,
        authorKind: d.sovereign ? 'sovereign' : 'agent',
        authorRef: d.author,
        unattested: d.unattested ?? false,
        held: d.held ?? false,
        heldReason: d.held ? 'burst' : null,
        replyTo: d.replyTo ?? null,
        at: new Date(d.at),
      }),
    ),
  );
  return sequence;
}

/** The old whole-history walk of /api/spines (root, depth, size of each thread). */
const SPINES_REFERENCE = `with recursive walk as (
    select sequence as root, sequence, 1 as depth from imprints
     where not held and (reply_to is null or reply_to not in (select sequence from imprints where not held))
    union all
    select w.root, i.sequence, w.depth + 1 from walk w join imprints i on i.reply_to = w.sequence and not i.held and i.sequence > w.sequence)
  select root::int, count(*)::int as size, max(depth)::int as depth from walk group by root having count(*) > 1 order by root`;

async function expectKeptEqualsFull() {
  const full = await sql(
    `select (created_at at time zone 'UTC')::date::text as day, kind, author_kind, count(*)::int as n
       from imprints where not held group by 1, 2, 3 order by 1, 2, 3`,
  );
  const days = await sql(
    `select day::text, kind, author_kind, imprints::int as n from imprint_days where imprints <> 0 order by 1, 2, 3`,
  );
  expect(days).toEqual(full);
  const hours = await sql<{ n: number }>(
    `select count(*)::int as n from (
       select date_trunc('hour', created_at at time zone 'UTC') as h, kind, author_kind, count(*) filter (where not held) as c, min(sequence) as f
         from imprints group by 1, 2, 3) x
       full join imprint_hours k on k.hour = x.h at time zone 'UTC' and k.kind = x.kind and k.author_kind = x.author_kind
      where k.imprints is distinct from x.c or k.first_sequence is distinct from x.f`,
  );
  expect(at(hours, 0).n).toBe(0);
  const cross = await sql(
    `select r.author_kind as f, p.author_kind as t, count(*)::int as n from imprints r join imprints p on p.sequence = r.reply_to
      where not r.held and not p.held group by 1, 2 order by 1, 2`,
  );
  const kept = await sql(
    `select split_part(name, ':', 2) as f, split_part(name, ':', 3) as t, value::int as n from record_tallies
      where name like 'replies:%' and value <> 0 order by 1, 2`,
  );
  expect(kept).toEqual(cross);
  expect(await sql('select root::int, size::int, depth::int from threads order by root')).toEqual(
    await sql(SPINES_REFERENCE),
  );
  const resonance = await sql(
    `select (r.created_at at time zone 'UTC')::date::text as day, o.author_kind, o.author_ref, count(*)::int as n
       from imprints r join imprints o on o.sequence = r.reply_to
      where not r.unattested and not r.held and not o.unattested and not o.held and r.author_ref <> o.author_ref
      group by 1, 2, 3 order by 1, 2, 3`,
  );
  expect(
    await sql(
      `select day::text, author_kind, author_ref, replies::int as n from resonance_days where replies <> 0 order by 1, 2, 3`,
    ),
  ).toEqual(resonance);
  const replies = await sql(
    `select p.sequence::int, (p.created_at at time zone 'UTC')::date::text as day, count(*)::int as n
       from imprints r join imprints p on p.sequence = r.reply_to where not r.held and not p.held group by 1, 2 order by 1`,
  );
  expect(
    await sql(
      `select sequence::int, day::text, replies::int as n from reply_counts where replies <> 0 order by 1`,
    ),
  ).toEqual(replies);
  const arrivals = await sql(
    `select day, kind, sum(members)::int as members, sum(public)::int as public from (
       select (created_at at time zone 'UTC')::date::text as day, 'sovereign' as kind, 1 as members, 1 as public from sovereigns
       union all select (first_seen_at at time zone 'UTC')::date::text, 'agent', 1, public::int from agents) x
      group by 1, 2 order by 1, 2`,
  );
  expect(
    await sql(
      `select day::text, kind, members::int, public::int from arrival_days where members <> 0 or public <> 0 order by 1, 2`,
    ),
  ).toEqual(arrivals);
}

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => t?.close());

describe('kept tallies', () => {
  it('equal the full computations after mixed writes, releases and merges', async () => {
    let at = START;
    const next = (step = 37 * 60_000) => (at += step);
    for (let i = 0; i < 4; i++) {
      await sql(
        `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ($1, 'x', 'arrived', $2, $2)`,
        [`kt-${i}`, new Date(next()).toISOString()],
      );
    }
    const root = await write({ author: 'kt-0', at: next() });
    const human = await write({ author: 'sov-a', sovereign: true, replyTo: root, at: next() });
    const heldMiddle = await write({ author: 'kt-1', replyTo: human, held: true, at: next() });
    // Replies under a held imprint start threads of their own until the hold is released.
    const under = await write({ author: 'kt-2', replyTo: heldMiddle, at: next(DAY) });
    await write({ author: 'kt-3', replyTo: under, at: next() });
    await write({ author: 'sov-b', sovereign: true, replyTo: under, unattested: true, at: next() });
    const quiet = await write({ author: 'kt-3', unattested: true, at: next() });
    await write({ author: 'sov-a', sovereign: true, replyTo: quiet, at: next() });
    await write({ author: 'kt-0', replyTo: root, at: next(DAY) });
    await write({ author: 'kt-0', replyTo: root, held: true, at: next() });
    await expectKeptEqualsFull();

    await sql('update imprints set held = false where sequence = $1', [heldMiddle]);
    await expectKeptEqualsFull();
    await sql(`update imprints set unattested = false where author_ref = 'kt-3'`);
    await sql('update agents set public = true where handle = $1', ['kt-1']);
    await sql(`update agents set first_seen_at = first_seen_at - interval '2 days' where handle = 'kt-2'`);
    await expectKeptEqualsFull();
    await write({ author: 'kt-1', replyTo: under, at: next() });
    await expectKeptEqualsFull();

    // The views read the kept rows: the merged thread is one spine of depth 5.
    const spines = (await json('/api/spines')).json();
    expect(spines.spines[0]).toMatchObject({ root, length: 5 });
    expect(spines.spines[0].spine.map((s: { sequence: number }) => s.sequence).slice(0, 4)).toEqual([
      root,
      human,
      heldMiddle,
      under,
    ]);

    // The story so far reads the lifetime rows (hour of day, the top of the reply counts): the
    // same answer as the lens over the same days read day by day.
    const byHour = await sql(
      `select extract(hour from created_at at time zone 'UTC')::int as hour, count(*)::int as n
         from imprints where not held group by 1 order by 1`,
    );
    expect(
      await sql(
        'select hour_of_day::int as hour, imprints::int as n from imprint_hours_of_day where imprints <> 0 order by 1',
      ),
    ).toEqual(byHour);
    const story = await storySoFar(t.app.civitas);
    const lens = await timeLens(t.app.civitas, story.period, 'civitas.story.v1');
    expect(story.busiest_hour).not.toBeNull();
    expect(story.threads.length).toBeGreaterThan(0);
    expect(story).toEqual(lens);
  });
});

describe('views kept by the observatory job', () => {
  it('answer the kept swarm until the job runs again; a stale row is computed again', async () => {
    t.clock.set('2026-11-20T12:00:00.000Z');
    const now = () => t.clock.now().getTime();
    for (let i = 0; i < 5; i++) await write({ author: `swarm-${i}`, at: now() - 60_000 });
    const first = (await json('/api/swarm')).json();
    expect(first.active_agents).toBe(5);
    await write({ author: 'swarm-5', at: now() - 30_000 });
    expect((await json('/api/swarm')).json()).toEqual(first);
    expect((await refreshKept(t.app.civitas, [keptSwarm, keptObservatory])).computed).toEqual([
      'swarm',
      'observatory',
    ]);
    // A second process's run in the same interval finds the views claimed.
    expect((await refreshKept(t.app.civitas, [keptSwarm])).computed).toEqual([]);
    expect((await json('/api/swarm')).json().active_agents).toBe(6);
    const dashboard = (await json('/api/observatory')).json();
    expect(dashboard.instruments.find((i: { key: string }) => i.key === 'swarm').reading).toEqual({
      active_agents: 6,
    });
    await write({ author: 'swarm-6', at: now() - 10_000 });
    t.clock.advance(4 * 60_000);
    expect((await json('/api/swarm')).json().active_agents).toBe(7);
  });
});
