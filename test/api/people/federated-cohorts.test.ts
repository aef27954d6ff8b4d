/**
 * Federated cohorts kept (issue 20, migration 0085): `federated_cohort_counts` equals a full
 * recount of `federation_relays` (each (peer, author) in the UTC month of its first relay) after
 * first relays, repeats, an older relay arriving later, several peers and months, updates, deletes
 * and a truncate; /api/cohorts/federated pages by key through every cohort once; /api/state shows a
 * bounded first page and links the rest; the projector still gives k-anonymous counts and no author.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { parseFederationPeers } from '../../../api/config.ts';
import { requests } from '../../helpers/http.ts';
import { kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';
import { expectCursorsRefused, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';

let t: TestApp;
beforeAll(async () => {
  const x = (await exportJWK((await generateKeyPair('EdDSA', { crv: 'Ed25519' })).publicKey)).x!;
  const federationPeers = parseFederationPeers(
    JSON.stringify([{ name: 'peer-a', origin: 'https://peer-a.example/', public_key: x }]),
  );
  t = await createTestApp({ config: { federationPeers } });
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const query = (text: string, params: unknown[] = []) => t.database.db.query(text, params);

let serial = 0;
/** Relays in one statement: [peer, author, received_at]. */
async function relay(...rows: [string, string | null, string][]) {
  const values = rows.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`);
  await query(
    `insert into federation_relays (id, peer, jti, topic, body, author, issued_at, received_at, receipt_id)
     select id, peer, id, 'idea', 'relayed', author, at::timestamptz, at::timestamptz, 'rcpt_test'
       from (values ${values.join(', ')}) v(id, peer, author, at)`,
    rows.flatMap(([peer, author, at]) => [`relay-${++serial}`, peer, author, at]),
  );
}

/** The full recount the view used to make on every request, and the kept counts. */
async function expectKeptEqualsRecount() {
  const recount = await query(
    `select peer, month, kind, count(*)::int8 as members from (
       select peer, case when author like 'agent:%' then 'agent' else 'sovereign' end as kind,
              to_char(min(received_at) at time zone 'UTC', 'YYYY-MM') as month
         from federation_relays where author is not null group by peer, author) x
      group by 1, 2, 3 order by 1, 2, 3`,
  );
  const kept = await query(
    `select peer, to_char(month, 'YYYY-MM') as month, kind, members from federated_cohort_counts
      order by 1, 2, 3`,
  );
  expect(kept).toEqual(recount);
  return kept;
}

describe('federated cohort counts kept as relays are written', () => {
  it('equal a full recount after inserts, repeats, older relays, updates, deletes and a truncate', async () => {
    await relay(
      ['peer-a', 'agent:one', '2026-01-10T00:00:00Z'],
      ['peer-a', 'sovereign:two', '2026-01-31T23:30:00Z'],
      ['peer-b', 'agent:one', '2026-02-01T00:00:00Z'],
      ['peer-b', null, '2026-02-02T00:00:00Z'],
    );
    expect(await expectKeptEqualsRecount()).toHaveLength(3);
    // A repeat in a later month moves nothing; two relays of one new author in one statement count once.
    await relay(['peer-a', 'agent:one', '2026-03-01T00:00:00Z']);
    await relay(
      ['peer-a', 'agent:three', '2026-03-05T00:00:00Z'],
      ['peer-a', 'agent:three', '2026-03-04T00:00:00Z'],
    );
    await expectKeptEqualsRecount();
    // An older relay arriving later moves the author to its month.
    await relay(['peer-a', 'agent:three', '2025-12-24T00:00:00Z']);
    expect(await expectKeptEqualsRecount()).toContainEqual({
      peer: 'peer-a',
      month: '2025-12',
      kind: 'agent',
      members: 1,
    });
    // Updates behind the service's back: a time, an author, a peer; and one that moves nothing.
    await query(
      "update federation_relays set received_at = '2026-04-01T00:00:00Z' where author = 'sovereign:two'",
    );
    await query(
      "update federation_relays set author = 'sovereign:four' where peer = 'peer-b' and author is null",
    );
    await query(
      "update federation_relays set peer = 'peer-c' where peer = 'peer-b' and author = 'agent:one'",
    );
    await query("update federation_relays set topic = 'other' where peer = 'peer-a'");
    await expectKeptEqualsRecount();
    // Deleting an author's first relay moves it to its next; deleting its last removes it.
    await query(
      "delete from federation_relays where author = 'agent:three' and received_at < '2026-01-01T00:00:00Z'",
    );
    await expectKeptEqualsRecount();
    await query("delete from federation_relays where author in ('agent:three', 'sovereign:four')");
    await expectKeptEqualsRecount();
    await query('truncate federation_relays');
    expect(await expectKeptEqualsRecount()).toEqual([]);
  });
});

/** Cohorts of three peers over five months, 6 sovereigns and 2 agents each. */
async function fill() {
  for (const peer of ['peer-a', 'peer-b', 'peer-c'])
    for (const month of ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05']) {
      const authors = [...Array(6).keys()].map((i) => `sovereign:${peer}-${month}-${i}`);
      authors.push(`agent:${peer}-${month}-a`, `agent:${peer}-${month}-b`);
      await relay(...authors.map((a): [string, string, string] => [peer, a, `${month}-15T00:00:00Z`]));
    }
}

type Cohort = { peer: string; month: string; humans: unknown; agents: unknown };
const cohortsOf = (body: PageBody) => (body as PageBody & { cohorts: Cohort[] }).cohorts;
const keyOf = (c: Cohort) => `${c.peer} ${c.month}`;

describe('/api/cohorts/federated and /api/state read the kept counts a page at a time', () => {
  it('walks every cohort once, in order, while a cohort arrives between pages; previous walks back', async () => {
    await fill();
    await expectKeptEqualsRecount();
    const walked = await walkForward(get, '/api/cohorts/federated?limit=4', cohortsOf, async (page) => {
      if (page === 1) await relay(['peer-z', 'agent:late', '2026-06-01T00:00:00Z']);
    });
    expect(walked.pages).toBe(4);
    const want = ['peer-a', 'peer-b', 'peer-c'].flatMap((peer) =>
      ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05'].map((month) => `${peer} ${month}`),
    );
    expect(walked.items.map(keyOf)).toEqual([...want, 'peer-z 2026-06']);
    expect((await walkBack(get, walked.last, cohortsOf)).map(keyOf)).toEqual(walked.items.map(keyOf));
    await expectCursorsRefused(get, '/api/cohorts/federated');
    expect((await get('/api/cohorts/federated?limit=241')).statusCode).toBe(400);
  });

  it('keeps counts k-anonymous and authors and origins inside', async () => {
    const res = await get('/api/cohorts/federated?limit=1');
    const body = res.json();
    expect(body).toMatchObject({ peers: 1, limit: 1, previous: null });
    expect(body.next).toMatch(/^\/api\/cohorts\/federated\?limit=1&after=/);
    expect(body.cohorts).toEqual([
      { peer: 'peer-a', month: '2026-01', humans: kAnonymousCount(6), agents: kAnonymousCount(2) },
    ]);
    for (const hidden of ['sovereign:', 'agent:', 'peer-a.example', 'relayed 2026'])
      expect(res.body).not.toContain(hidden);
  });

  it('/api/state shows the first page and links the rest', async () => {
    for (let i = 0; i < 8; i++)
      await relay(['peer-y', `agent:y${i}`, `2027-${String(i + 1).padStart(2, '0')}-01T00:00:00Z`]);
    const state = (await get('/api/state')).json();
    expect(state.federated_cohorts).toHaveLength(20);
    expect(state.federated_cohorts_next).toMatch(/^\/api\/cohorts\/federated\?limit=20&after=/);
    const rest = (await get(state.federated_cohorts_next)).json();
    expect(rest.next).toBeNull();
    const all = await walkForward(get, '/api/cohorts/federated?limit=240', cohortsOf);
    expect([...state.federated_cohorts, ...rest.cohorts]).toEqual(all.items);
    expect(all.items).toHaveLength(24);
  });
});
