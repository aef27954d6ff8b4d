import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneSessionsAndFlashes } from '../../../api/identity/prune.ts';
import { JOBS } from '../../../api/families.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('identity.prune', () => {
  it('is one of the periodic jobs', () => {
    expect(JOBS.find((job) => job.name === 'identity.prune')?.run).toBe(pruneSessionsAndFlashes);
  });

  it('deletes expired and revoked sessions and stale flashes, and keeps live ones', async () => {
    const dana = await signedInSovereign(t.app);
    const db = t.database.db;
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const session = (id: string, expires: number, revoked: number | null) =>
      db.query(
        `insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at, revoked_at)
         values ($1, $2, $3, $3, $4, $5)`,
        [id, dana.id, at(-86_400_000), at(expires), revoked === null ? null : at(revoked)],
      );
    await session('prune-expired', -1_000, null);
    await session('prune-revoked', 86_400_000, -1_000);
    await session('prune-live', 86_400_000, null);
    const flash = (id: string, interval: string) =>
      db.query(`insert into form_flashes (id, payload, expires_at) values ($1, '{}', now() + $2::interval)`, [
        id,
        interval,
      ]);
    await flash('prune-stale', '-1 minute');
    await flash('prune-fresh', '1 hour');

    expect(await pruneSessionsAndFlashes(t.app.civitas)).toMatchObject({
      ran: true,
      sessions: 2,
      flashes: 1,
    });

    const sessions = await db.query<{ id_hash: string }>(
      `select id_hash from sessions where id_hash like 'prune-%' order by id_hash`,
    );
    expect(sessions.map((s) => s.id_hash)).toEqual(['prune-live']);
    const flashes = await db.query<{ id: string }>(`select id from form_flashes where id like 'prune-%'`);
    expect(flashes.map((f) => f.id)).toEqual(['prune-fresh']);
    // The session dana signed in with is live: it stays.
    const own = await db.query(
      `select 1 from sessions where sovereign_id = $1 and id_hash not like 'prune-%'`,
      [dana.id],
    );
    expect(own).toHaveLength(1);
  });
});
