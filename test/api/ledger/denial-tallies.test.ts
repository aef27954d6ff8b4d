/**
 * Denials by reason kept (migration 0084): /api/state and /api/transparency read the tallies
 * `denials:<reason>` instead of grouping every denial on each request. The tallies stay what a
 * full recount of the denials says after refusals through the door, a reason changed behind the
 * service's back, an actor redacted, rows deleted and a truncate, each in the writer's own
 * statement, and what the views publish follows every one of those changes at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const db = () => t.database.db;

/** The kept tallies (a reason counted down to none reads as none). */
async function kept(): Promise<Record<string, number>> {
  const rows = await db().query<{ name: string; value: string | number }>(
    "select name, value from record_tallies where name like 'denials:%' and value <> 0 order by name",
  );
  return Object.fromEntries(rows.map((r) => [r.name.slice('denials:'.length), Number(r.value)]));
}

/** The same counted the slow way, from every denial. */
async function recounted(): Promise<Record<string, number>> {
  const rows = await db().query<{ reason: string; n: string | number }>(
    'select reason, count(*) as n from denials group by reason order by reason',
  );
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.n)]));
}

/** What /api/state and /api/transparency publish of the denials, and what the recount says they should. */
async function published() {
  const state = (await t.app.inject({ method: 'GET', url: '/api/state' })).json();
  const transparency = (await t.app.inject({ method: 'GET', url: '/api/transparency' })).json();
  const counts = await recounted();
  const by_reason = Object.entries(counts).map(([reason, count]) => ({ reason, count }));
  const expected = { total: by_reason.reduce((sum, r) => sum + r.count, 0), by_reason };
  return {
    state: { total: state.denials.total, by_reason: state.denials.by_reason },
    transparency: { total: transparency.denials.total, by_reason: transparency.denials.by_reason },
    expected,
  };
}

async function refuse(cookie: string): Promise<string> {
  const refused = await t.app.inject({
    method: 'POST',
    url: '/sovereign/triage',
    headers: { cookie, origin: 'http://civitas.test' },
    payload: {},
  });
  expect(refused.statusCode).toBe(403);
  return String(refused.headers['x-civitas-denial-receipt']);
}

describe('denials by reason', () => {
  it('are kept equal to a recount through refusals, tampering, deletions and a truncate', async () => {
    const person = await signedInSovereign(t.app);
    const receipts = [await refuse(person.cookie), await refuse(person.cookie), await refuse(person.cookie)];
    expect((await kept()).scope_required).toBeGreaterThanOrEqual(3);
    expect(await kept()).toEqual(await recounted());
    let views = await published();
    expect(views.state).toEqual(views.expected);
    expect(views.transparency).toEqual(views.expected);

    // A reason changed behind the service's back moves both tallies in the same statement.
    await db().query("update denials set reason = 'tampered' where receipt_id = $1", [receipts[0]]);
    expect((await kept()).tampered).toBe(1);
    expect(await kept()).toEqual(await recounted());
    views = await published();
    expect(views.state.by_reason).toContainEqual({ reason: 'tampered', count: 1 });
    expect(views.state).toEqual(views.expected);

    // An actor redacted (erasure) moves no reason and so no count.
    const before = await kept();
    await db().query('update denials set actor_ref = null, actor_public = null, actor_kind = null');
    expect(await kept()).toEqual(before);

    // A deleted denial leaves the count at once.
    await db().query('delete from denials where receipt_id = $1', [receipts[1]]);
    expect(await kept()).toEqual(await recounted());
    views = await published();
    expect(views.state.total).toBe(views.expected.total);
    expect(views.state).toEqual(views.expected);

    // A truncate takes every tally with the rows.
    await db().query('truncate denials');
    expect(await kept()).toEqual({});
    views = await published();
    expect(views.state).toEqual({ total: 0, by_reason: [] });
    expect(views.transparency).toEqual({ total: 0, by_reason: [] });

    // And counting starts again from there.
    await refuse(person.cookie);
    expect(await kept()).toEqual({ scope_required: 1 });
    expect(await kept()).toEqual(await recounted());
  });
});
