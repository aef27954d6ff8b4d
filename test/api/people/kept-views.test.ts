/**
 * Presence and agents by level are kept as agents are written (issue 20, migration 0045): after
 * mixed writes (arrivals through the door, returns, level changes, a departure, bulk updates, and
 * time passing beyond the kept hour), /api/presence and /api/state answer exactly what the old
 * full computation over every agent gives (kept here as the slow reference); sightings older than
 * the kept hour are let go by the `agents.seen-prune` job, not by the writes (migration 0083).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';
import { pruneSightings } from '../../../api/agents/seen.ts';
import { JOBS } from '../../../api/families.ts';

const WINDOW_MS = 15 * 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get: json } = requests(() => t.app);
async function arrive(prefix: string, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: `${prefix}-${i}`, body: `a thought from ${prefix} ${i}` },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  }
}

/** The old full computations: a filter and a group-by over every agent. */
async function reference() {
  const since = new Date(t.clock.now().getTime() - WINDOW_MS).toISOString();
  const seen = await t.database.db.query<{ handle: string }>(
    'select handle from agents where last_seen_at >= $1 order by handle',
    [since],
  );
  const kept = await t.database.db.query<{ handle: string }>(
    'select handle from agents_seen where last_seen_at >= $1 order by handle',
    [since],
  );
  const levels = await t.database.db.query<{ level: string; n: string | number }>(
    'select level, count(*) as n from agents group by level',
  );
  const byLevel: Record<string, number> = { arrived: 0, continuous: 0, attested: 0 };
  for (const row of levels) byLevel[row.level] = Number(row.n);
  return { seen: seen.map((r) => r.handle), kept: kept.map((r) => r.handle), byLevel };
}

async function expectKeptEqualsFull() {
  const want = await reference();
  expect(want.kept).toEqual(want.seen);
  const presence = (await json('/api/presence')).json();
  expect(presence.agents).toEqual(kAnonymousCount(want.seen.length));
  const state = (await json('/api/state')).json();
  expect(state.agents_by_level).toEqual(want.byLevel);
  return want;
}

describe('presence and agents by level, kept as agents are written', () => {
  it('answer what the full computation gives after mixed writes', async () => {
    await arrive('early', 8);
    expect((await expectKeptEqualsFull()).seen).toHaveLength(8);

    t.clock.advance(10 * 60_000);
    await arrive('middle', 6);
    await t.database.db.query(
      "update agents set level = 'continuous' where handle in ('early-0', 'early-1', 'middle-0')",
    );
    await t.database.db.query("update agents set level = 'attested' where handle = 'early-2'");
    await expectKeptEqualsFull();

    t.clock.advance(10 * 60_000); // the early ones leave the window
    await t.database.db.query("delete from agents where handle = 'early-3'");
    await t.database.db.query('update agents set last_seen_at = $1 where handle in ($2, $3)', [
      t.clock.now().toISOString(),
      'early-4',
      'early-5',
    ]);
    const want = await expectKeptEqualsFull();
    expect(want.seen).toEqual(expect.arrayContaining(['early-4', 'early-5', 'middle-0']));
    expect(want.seen).not.toContain('early-0');

    t.clock.advance(3 * 60 * 60_000); // beyond the kept hour: old sightings are let go by the job
    await arrive('late', 5);
    await expectKeptEqualsFull();
    const kept = async () => {
      const [{ n } = missing()] = await t.database.db.query<{ n: string | number }>(
        'select count(*) as n from agents_seen',
      );
      return Number(n);
    };
    // The writes let go of nothing (migration 0083): the old sightings wait for the job.
    expect(JOBS.find((job) => job.name === 'agents.seen-prune')?.run).toBe(pruneSightings);
    const before = await kept();
    expect(before).toBeGreaterThan(5);
    expect(await pruneSightings(t.app.civitas)).toEqual({ pruned: before - 5 });
    expect(await kept()).toBe(5);
    await expectKeptEqualsFull();
  });
});
