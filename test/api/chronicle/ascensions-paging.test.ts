/**
 * /ascensions pages by key and reads kept rows (issue 20; migration 0076): the pages, walked to the
 * end with an agent ascending between two of them, list every ascension once in the order the full
 * computation gives (every public continuous or attested agent, its proof days counted, newest
 * ascension first), `previous` walks back, and the kept rows and counts equal that computation
 * through door imprints, bulk inserts, an attestation, the attester's erasure and deleted proof days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { agentImprint, continuousAgent, erased } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';
import {
  BAD_CURSORS,
  expectCursorsRefused,
  walkBack,
  walkForward,
  type PageBody,
} from '../../helpers/paging.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { at } from '../../helpers/elements.ts';

const DAY = 86_400_000;
let t: TestApp;
let steward: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward({ site: true }));
});
afterAll(async () => t?.close());

const { get, post, page } = requests(() => t.app);

interface Ascension {
  agent: { ref: string };
  level: string;
  continuous_on: string | null;
  attested_at: string | null;
  days_with_proof: number;
}
type AscensionsBody = PageBody & { ascensions: Ascension[]; count: { continuous: number; attested: number } };
const rowsOf = (body: PageBody) => (body as AscensionsBody).ascensions;

/** The list as the route computed it before it was kept: every agent, its proof days counted, sorted here. */
async function computed() {
  const rows = await t.database.db.query<{
    handle: string;
    level: string;
    continuous_on: string | null;
    attested_at: string | null;
    days: string | number;
  }>(
    `select a.handle, a.level,
            (select to_char(d.day, 'YYYY-MM-DD') from agent_proof_days d where d.handle = a.handle order by d.day offset 1 limit 1) as continuous_on,
            to_char(a.attested_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as attested_at,
            (select count(*) from agent_proof_days d where d.handle = a.handle) as days
       from agents a where a.level in ('continuous', 'attested') and a.public`,
  );
  return rows
    .map((r) => ({
      agent: { kind: 'agent', ref: `agent:${r.handle}`, display: `agent:${r.handle}` },
      level: r.level,
      continuous_on: r.continuous_on,
      attested_at: r.attested_at,
      days_with_proof: Number(r.days),
      status: `/api/agent/${r.handle}`,
      latest:
        [r.attested_at, r.continuous_on]
          .filter((v): v is string => v !== null)
          .sort()
          .at(-1) ?? '',
    }))
    .sort((a, b) => b.latest.localeCompare(a.latest) || a.agent.ref.localeCompare(b.agent.ref))
    .map(({ latest: _latest, ...rest }) => rest);
}

/** Every page from the first, and the counts the first page shows. */
async function everything() {
  const walked = await walkForward(get, '/ascensions?limit=100', rowsOf);
  const first = (await get('/ascensions?limit=1')).json() as AscensionsBody;
  return { items: walked.items, count: first.count };
}

async function expectKept() {
  const expected = await computed();
  const { items, count } = await everything();
  expect(items).toEqual(expected);
  expect(count).toEqual({
    continuous: expected.filter((a) => a.level === 'continuous').length,
    attested: expected.filter((a) => a.level === 'attested').length,
  });
}

/** Agents written as the seed writes them (bulk SQL): rows, then their proof days. */
async function bulkAgents(prefix: string, count: number, days: string[], publicRows = true) {
  const handles = Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
  await t.database.db.query(
    `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at, imprints_accepted, imprints_quarantined, public)
     select h, 'x', 'continuous', $2::timestamptz, $2::timestamptz, 1, 0, $3 from unnest($1::text[]) as h`,
    [handles, `${days[0]}T01:00:00Z`, publicRows],
  );
  await t.database.db.query(
    `insert into agent_proof_days (handle, day) select h, d::date from unnest($1::text[]) as h, unnest($2::text[]) as d`,
    [handles, days],
  );
  return handles;
}

describe('/ascensions', () => {
  let secret: string;
  it('keeps door ascensions and bulk-written agents as the full computation lists them', async () => {
    secret = await continuousAgent(t, 'alder');
    await continuousAgent(t, 'birch');
    await bulkAgents('cedar', 12, ['2026-10-01', '2026-10-02', '2026-10-05']);
    await bulkAgents('dogwood', 9, ['2026-10-03', '2026-10-04']);
    await bulkAgents('hidden', 3, ['2026-10-03', '2026-10-04'], false);
    // An ascended agent's later proof day is counted.
    t.clock.advance(DAY);
    await agentImprint(t.app, 'alder', 'day three', { continuity: secret });
    const list = await computed();
    expect(list).toHaveLength(23);
    expect(list.find((a) => a.agent.ref === 'agent:alder')?.days_with_proof).toBe(3);
    await expectKept();
  });

  it('pages by key: every ascension once, in order, while one ascends between pages; previous walks back', async () => {
    const before = await computed();
    const walked = await walkForward(get, '/ascensions?limit=5', rowsOf, async (n) => {
      if (n === 2) await continuousAgent(t, 'elm');
    });
    expect(walked.pages).toBe(5);
    expect(walked.items).toEqual(before);
    const after = await computed();
    expect(at(after, 0).agent.ref).toBe('agent:elm');
    expect(await walkBack(get, walked.last, rowsOf)).toEqual(after);
  });

  it('follows an attestation and the attester erasure', async () => {
    const me = await signedInSovereign(t.app);
    expect((await post('/standing/rotate-relay', { handle: 'birch' }, me.cookie)).statusCode).toBe(200);
    const first = (await get('/ascensions?limit=1')).json() as AscensionsBody;
    expect(first.ascensions[0]).toMatchObject({ agent: { ref: 'agent:birch' }, level: 'attested' });
    await expectKept();

    await erased(t.app, me, steward);
    await expectKept();
  });

  it('recounts when proof days go and when a hidden agent becomes public', async () => {
    await t.database.db.query(
      `delete from agent_proof_days where handle in ('cedar-000', 'cedar-001') and day = '2026-10-02'`,
    );
    await t.database.db.query(`delete from agent_proof_days where handle = 'dogwood-000'`);
    await t.database.db.query(`update agents set public = true where handle = 'hidden-000'`);
    await expectKept();
    const kept = await t.database.db.query<{ continuous_on: string | null }>(
      `select to_char(continuous_on, 'YYYY-MM-DD') as continuous_on from agent_ascensions where handle = 'cedar-000'`,
    );
    expect(kept).toEqual([{ continuous_on: '2026-10-05' }]);
  });

  it('links its pages on the page too, and refuses a cursor it did not write', async () => {
    const html = (await page('/ascensions?limit=3')).body;
    expect(html).toMatch(/href="\/ascensions\?limit=3&amp;after=[A-Za-z0-9_-]+" rel="next"/);
    await expectCursorsRefused(get, '/ascensions');
    expect((await get('/ascensions?limit=101')).statusCode).toBe(400);
    expect((await page(`/ascensions?after=${BAD_CURSORS[1]}`)).statusCode).toBe(400);
  });
});
