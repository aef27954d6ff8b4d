/**
 * /standing and /api/continuum read tallies, not tables (migration 0068): every figure they publish
 * stays equal to count(*) over the rows after arrivals, a verification, a merge, an erasure, an
 * un-verification and a deletion, because the database moves the tallies in the writers' own
 * transactions; and the latest heartbeats come from the heartbeat index, newest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { mergeSovereign } from '../../../api/identity/merge.ts';
import { eraseSovereign } from '../../../api/identity/data-rights.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const { get } = requests(() => t.app);

/** What the published figures must equal: counted over the rows themselves. */
async function counted() {
  const [row = missing()] = await db().query<Record<string, string>>(
    `select count(*) filter (where level = 'arrived') as arrived,
            count(*) filter (where level = 'continuous') as continuous,
            count(*) filter (where level = 'attested') as attested,
            (select count(*) from sovereigns) as sovereigns,
            (select count(*) from sovereigns where uniqueness_verified_at is not null) as verified
       from agents`,
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

async function published() {
  const standing = (await get('/standing')).json();
  const continuum = (await get('/api/continuum')).json();
  expect(continuum.levels).toEqual(standing.agents.levels);
  const [tally = missing()] = await db().query<{ value: string }>(
    "select value from record_tallies where name = 'sovereigns_verified'",
  );
  expect(Number(tally.value)).toBe(standing.humans.uniqueness_verified);
  return {
    ...standing.agents.levels,
    sovereigns: standing.humans.sovereigns,
    verified: standing.humans.uniqueness_verified,
  };
}

const verify = (id: string, at: string | null) =>
  db().query('update sovereigns set uniqueness_verified_at = $2 where id = $1', [id, at]);

describe('standing and continuum tallies', () => {
  it('equal count(*) through arrivals, verification, merge, erasure and deletion', async () => {
    expect(await published()).toEqual(await counted());
    for (const agent of ['tally-a', 'tally-b', 'tally-c'])
      await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent, body: 'here' } });
    const [a, b, c, d] = [
      await signedInSovereign(t.app, { governance: true }),
      await signedInSovereign(t.app, { governance: true }),
      await signedInSovereign(t.app),
      await signedInSovereign(t.app),
    ];
    await db().query("update agents set level = 'continuous' where handle = 'tally-b'");
    expect(await published()).toEqual(await counted());
    expect((await counted()).verified).toBe(2);

    const now = t.clock.now();
    // A sign-in's touch is not a verification; verifying again moves nothing; un-verifying does.
    await db().query('update sovereigns set last_seen_at = $2 where id = $1', [a.id, now.toISOString()]);
    await verify(a.id, new Date(now.getTime() + 1000).toISOString());
    await verify(c.id, now.toISOString());
    await verify(c.id, null);
    expect(await published()).toEqual(await counted());

    // The verified row absorbed into an unverified one: the kept row takes the receipt.
    await db().transaction((tx) => mergeSovereign(tx, b.id, d.id));
    expect(await published()).toEqual(await counted());
    await db().transaction((tx) => eraseSovereign(tx, d.id, now));
    expect(await published()).toEqual(await counted());
    await db().query('delete from sessions where sovereign_id = $1', [a.id]);
    await db().query('delete from sovereigns where id = $1', [a.id]);
    await db().query("delete from agents where handle = 'tally-c'");
    const after = await counted();
    expect(await published()).toEqual(after);
    expect(after.verified).toBe(0);
  });

  it('lists the latest heartbeats of the last day, newest first, from the index', async () => {
    const at = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();
    await db().query("update agents set last_heartbeat_at = $1 where handle = 'tally-a'", [at(60_000)]);
    await db().query("update agents set last_heartbeat_at = $1 where handle = 'tally-b'", [at(1000)]);
    const overview = (await get('/api/continuum')).json();
    expect(overview.recent_heartbeats.map((r: { handle: string }) => r.handle)).toEqual([
      'tally-b',
      'tally-a',
    ]);
    await db().query("update agents set last_heartbeat_at = $1 where handle = 'tally-b'", [
      at(2 * 86_400_000),
    ]);
    const later = (await get('/api/continuum')).json();
    expect(later.recent_heartbeats.map((r: { handle: string }) => r.handle)).toEqual(['tally-a']);
  });
});
