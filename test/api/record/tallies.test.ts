/**
 * The Record's tallies (migration 0022): the counts /api/stats and the Record view read as one row
 * each stay equal to what count(*) over the tables says, whatever wrote the rows — the sequencer's
 * batches through every door, a held imprint released, rows deleted — because the database keeps
 * them, statement by statement, in the writer's own transaction. Runs on whichever database the
 * suite uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { firstOf, missing } from '../../helpers/elements.ts';
import { COURT_TALLIES_RECOUNT, PUBLIC_TALLIES_RECOUNT } from '../../helpers/public-tallies.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const agentImprint = (agent: string, body: string) =>
  t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent, body } });

/** The tallies next to the counts they stand for, taken the slow way. */
const LIVE_ADDRESSES = 'select count(*) as n from sovereigns where erased_at is null group by lower(tag)';

async function tallied() {
  const rows = await db().query<{ name: string; value: string | number }>(
    "select name, value from record_tallies where name <> 'imprints_revision'",
  );
  const tallies = Object.fromEntries(rows.map((r) => [r.name, Number(r.value)]));
  const [counted = missing()] = await db().query<Record<string, string | number>>(
    // Who is counted (migration 0032): sovereigns not erased; handles with an imprint not held.
    // The ledger's days and sealed days (migration 0067).
    `select (select count(*) from sovereigns) as sovereigns,
            (select count(*) from agents a where exists (
               select 1 from imprints i where i.author_kind = 'agent' and i.author_ref = a.handle and not i.held)) as agents,
            (select count(*) from imprints where unattested and not held) as imprints_unattested,
            (select count(*) from imprints where held) as imprints_held,
            (select count(*) from log_days) as log_days,
            (select count(*) from anchors) as anchors`,
  );
  const rules = await db().query<{ rule: string; n: string | number }>(
    "select 'imprints_held:' || coalesce(held_reason, 'other') as rule, count(*) as n from imprints where held group by 1",
  );
  for (const { rule, n } of rules) counted[rule] = n;
  // Agents by level (migration 0045), every agent row counted.
  const levels = await db().query<{ name: string; n: number }>(
    "select 'agents_level:' || level as name, count(*) as n from agents group by level",
  );
  for (const { name, n } of levels) counted[name] = n;
  // The other families' tallies kept in the same table (migrations 0067–0070, 0075, 0076, 0079, 0082, 0084, 0086), by their own definitions.
  const [acts] = await db().query<Record<string, string | number>>(
    `select (select count(*) from sovereigns where uniqueness_verified_at is not null) as sovereigns_verified,
            (select count(*) from sovereigns where uniqueness_verified_at is not null and erased_at is null) as sovereigns_ratifiers,
            (select count(*) from governance_proposals) as governance_proposals,
            (select count(*) from governance_cosigns) as governance_cosigns,
            (select count(*) from governance_ratifications) as governance_ratifications,
            (select count(*) from witness_marks) as witness_marks,
            (select count(*) from anchors) as anchors,
            (select count(*) from agent_ascensions where level = 'continuous') as "ascensions:continuous",
            (select count(*) from agent_ascensions where level = 'attested') as "ascensions:attested",
            (select count(*) from calibration_streaks where length >= 2) as calibration_streaks,
            (select count(*) from dreams) as dreams,
            -- address pressure (migration 0081), from the live sovereigns' tags
            (select count(*) from sovereigns where erased_at is null) as address_inhabitants,
            (select count(distinct lower(tag)) from sovereigns where erased_at is null) as address_distinct,
            (select count(*) from (${LIVE_ADDRESSES} having count(*) > 1) c) as address_colliding,
            (select coalesce(sum(n), 0) from (${LIVE_ADDRESSES} having count(*) > 1) c) as address_unaddressable`,
  );
  Object.assign(counted, acts);
  const grouped = await db().query<{ name: string; n: number }>(
    `select 'orders_status:' || status as name, count(*) as n from orders group by status
     union all select 'witness_marks:' || witness, count(*) from witness_marks group by witness
     union all select 'denials:' || reason, count(*) from denials group by reason
     union all ${PUBLIC_TALLIES_RECOUNT}
     union all ${COURT_TALLIES_RECOUNT}`,
  );
  for (const { name, n } of grouped) counted[name] = n;
  for (const name of Object.keys(tallies))
    if (name.startsWith('agents_level:') && !tallies[name]) delete tallies[name];
  for (const name of Object.keys(tallies))
    if (
      /^(imprints_held|orders_status|witness_marks|denials|data_requests|treasury_\w+|codex_\w+|feedback|mind_stances|court):|^imprint_reports_open$/.test(
        name,
      ) &&
      !tallies[name]
    )
      delete tallies[name];
  return { tallies, counted: Object.fromEntries(Object.entries(counted).map(([k, v]) => [k, Number(v)])) };
}

describe('the Record tallies', () => {
  it('match count(*) after imprints through every door, concurrent batches, a release from hold and deletions', async () => {
    const links = Array.from({ length: 8 }, (_, i) => `https://spam.example/${i}`).join(' ');
    const me = await signedInSovereign(t.app);
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => agentImprint(`tally-${i}`, `counted thought ${i}`)),
      agentImprint('tally-spam', links),
      t.app.inject({
        method: 'POST',
        url: '/api/quick-imprint',
        payload: { body: 'a human, counted' },
        headers: { cookie: me.cookie },
      }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(14).fill(200));
    let { tallies, counted } = await tallied();
    expect(counted.imprints_held).toBeGreaterThan(0); // the checks below can fail
    expect(tallies).toEqual(counted);

    // Released from hold (as triage does), and rows deleted (as erasure and merges do): each
    // statement moves its tally. (No door holds an accepted imprint again or deletes an agent's
    // imprints without the agent: a handle, once public, stays public — migration 0032.)
    await db().query('update imprints set held = false where held');
    await db().query('update sovereigns set erased_at = now() where id = $1', [me.id]);
    await db().query("delete from agent_proof_days where handle like 'tally-%'");
    await db().query("delete from agents where handle in ('tally-0', 'tally-1')");
    await db().query('delete from sessions where sovereign_id = $1', [me.id]);
    ({ tallies, counted } = await tallied());
    expect(tallies).toEqual(counted);

    // What /api/stats says is the tallies: no drift between the hot read and the tables.
    const stats = (await t.app.inject({ method: 'GET', url: '/api/stats' })).json();
    expect(stats).toMatchObject({
      humans: counted.sovereigns,
      agents: counted.agents,
      imprints_unattested: counted.imprints_unattested,
      imprints_held: counted.imprints_held,
    });
  });

  it("move the Record's revision with every statement that writes imprints, and only those", async () => {
    const revision = async () =>
      Number(
        firstOf(
          await db().query<{ value: string }>(
            "select value from record_tallies where name = 'imprints_revision'",
          ),
        ).value,
      );
    const start = await revision();
    await agentImprint('tally-revision', 'one more');
    expect(await revision()).toBeGreaterThan(start);
    const afterImprint = await revision();
    await db().query('update imprints set held = held where sequence = -1'); // touches no row
    await db().query("update agents set last_seen_at = last_seen_at where handle = 'tally-revision'");
    expect(await revision()).toBe(afterImprint);
    await db().query('update imprints set kind = kind where sequence = (select max(sequence) from imprints)');
    expect(await revision()).toBe(afterImprint + 1);
  });

  it('count the retained bodies from the window alone: erased bodies inside it do not count', async () => {
    const [before = missing()] = await db().query<{ n: string }>(
      'select count(*) as n from imprints where body is not null',
    );
    await db().query('update imprints set body = null where sequence = (select max(sequence) from imprints)');
    const record = (
      await t.app.inject({ method: 'GET', url: '/imprint', headers: { accept: 'application/json' } })
    ).json();
    expect(record.imprints_retained).toBe(Number(before.n) - 1);
  });
});
