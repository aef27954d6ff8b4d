/**
 * /api/abstentions reads kept counts (migration 0075), not every verified sovereign: the figures
 * stay what the full count over the sovereigns gives through a verification after a ratification,
 * an erasure of a ratifier verified before it, an erasure of the proposer, and the clock moving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { eraseSovereign } from '../../../api/identity/data-rights.ts';
import { at } from '../../helpers/elements.ts';
import {
  expectPageLinks,
  expectCursorsRefused,
  walkBack,
  walkForward,
  type PageBody,
} from '../../helpers/paging.ts';

let t: TestApp;
let proposer: TestSovereign;
let others: TestSovereign[];
const { get, post, page } = requests(() => t.app);

/** The definition, counted over every sovereign: what the kept figures must equal. */
async function fullCounts(): Promise<Map<string, number>> {
  const rows = await t.app.civitas.db.query<{ id: string; eligible: string | number }>(
    `select p.id, (select count(*) from sovereigns s
                    where s.uniqueness_verified_at is not null and s.erased_at is null and s.id <> p.proposer_id
                      and s.uniqueness_verified_at <= coalesce(p.ratified_at, $1::timestamptz)) as eligible
       from governance_proposals p where p.state in ('cosigned', 'ratified')`,
    [t.clock.now().toISOString()],
  );
  return new Map(rows.map((r) => [r.id, Number(r.eligible)]));
}

async function expectKeptEqualsFull() {
  const res = await get('/api/abstentions');
  expect(res.statusCode).toBe(200);
  const full = await fullCounts();
  const listed = res.json().ratifications as { id: string; eligible_ratifiers: number | string }[];
  expect(listed.map((r) => r.id).sort()).toEqual([...full.keys()].sort());
  for (const r of listed) {
    const n = full.get(r.id)!;
    expect(r.eligible_ratifiers, r.id).toBe(n < 5 ? 'fewer than 5' : n);
  }
  return Object.fromEntries(listed.map((r) => [r.id, r.eligible_ratifiers]));
}

async function proposal(title: string, ratify: boolean): Promise<string> {
  const res = await post(
    '/api/constitution/propose',
    { title, text: 'A rule for the abstentions probe.' },
    proposer.cookie,
  );
  expect(res.statusCode).toBe(200);
  const id = res.json().proposal.id as string;
  for (const c of others.slice(0, 3))
    expect((await post('/api/constitution/cosign', { proposal: id }, c.cookie)).statusCode).toBe(200);
  if (ratify)
    for (const r of others.slice(3, 5))
      expect((await post('/api/constitution/ratify', { proposal: id }, r.cookie)).statusCode).toBe(200);
  return id;
}

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock('2026-11-20T10:00:00.000Z'), site: true });
  proposer = await signedInSovereign(t.app, { governance: true });
  others = [];
  for (let i = 0; i < 8; i++) others.push(await signedInSovereign(t.app, { governance: true }));
});
afterAll(async () => t?.close());

describe('abstentions, kept', () => {
  it('stay the full count through a verification, erasures and the clock', async () => {
    t.clock.set('2026-11-20T11:00:00.000Z');
    const ratified = await proposal('Ratified early', true);
    t.clock.set('2026-11-20T12:00:00.000Z');
    const open = await proposal('Still open', false);
    let seen = await expectKeptEqualsFull();
    expect(seen[ratified]).toBe(8);
    expect(seen[open]).toBe(8);

    // Verified after the ratification: counts for the open proposal only.
    t.clock.set('2026-11-20T13:00:00.000Z');
    const late = await signedInSovereign(t.app, { governance: true });
    seen = await expectKeptEqualsFull();
    expect(seen[ratified]).toBe(8);
    expect(seen[open]).toBe(9);

    // A ratifier verified before the ratification is erased: both counts drop.
    await t.app.civitas.db.transaction((tx) => eraseSovereign(tx, at(others, 7).id, t.clock.now()));
    seen = await expectKeptEqualsFull();
    expect(seen[ratified]).toBe(7);
    expect(seen[open]).toBe(8);

    // The proposer is erased: the anonymous member proposes now, the proposer never counted.
    await t.app.civitas.db.transaction((tx) => eraseSovereign(tx, proposer.id, t.clock.now()));
    seen = await expectKeptEqualsFull();
    expect(seen[ratified]).toBe(7);
    expect(seen[open]).toBe(8);

    // The late one erased, and a verification set behind the service's back before the ratification.
    await t.app.civitas.db.transaction((tx) => eraseSovereign(tx, late.id, t.clock.now()));
    const plain = await signedInSovereign(t.app);
    await t.app.civitas.db.query(
      `update sovereigns set uniqueness_verified_at = '2026-11-19T00:00:00Z' where id = $1`,
      [plain.id],
    );
    seen = await expectKeptEqualsFull();
    expect(seen[ratified]).toBe(8);
    expect(seen[open]).toBe(8);
  });

  it('pages by key, newest cosigned first, with links on /abstentions and 400 for a link it did not make', async () => {
    proposer = await signedInSovereign(t.app, { governance: true }); // the first was erased above
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60_000);
      await proposal(`Paged ${i}`, i === 0);
    }
    type Listed = { id: string };
    const listedOf = (body: PageBody) => (body as PageBody & { ratifications: Listed[] }).ratifications;
    const whole = (await get('/api/abstentions')).json();
    expect(whole).toMatchObject({ limit: 50, next: null, previous: null });
    const all = listedOf(whole).map((r) => r.id);
    expect(all).toHaveLength(5);
    const walked = await walkForward(get, '/api/abstentions?limit=2', listedOf);
    expect(walked.items.map((r) => r.id)).toEqual(all);
    expect(walked.pages).toBe(3);
    expect((await walkBack(get, walked.last, listedOf)).map((r) => r.id)).toEqual(all);
    expect((await get('/api/abstentions?limit=201')).statusCode).toBe(400);
    await expectCursorsRefused(get, '/api/abstentions');

    await expectPageLinks(page, '/abstentions');
  });
});
