/**
 * The counts /api/orders, /lineage and /provenance show are tallies (migration 0069): they stay
 * equal to count(*) over the rows after filing, seconding and deciding orders through the doors,
 * governance acts, and writes straight to the tables (an erasure's rewrite, a merge's deletion).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
let alice: TestSovereign;
let bob: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signedInSovereign(t.app, { governance: true });
  bob = await signedInSovereign(t.app, { governance: true });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const { get, post } = requests(() => t.app);

async function orderCounts() {
  const rows = await db().query<{ status: string; n: string }>(
    'select status, count(*) as n from orders group by status',
  );
  const of = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return {
    recorded: of('recorded'),
    accepted: of('accepted'),
    applied: of('applied'),
    declined: of('declined'),
  };
}

async function expectOrdersTallied() {
  const view = (await get('/api/orders')).json();
  const counted = await orderCounts();
  expect(view.counts).toEqual(counted);
  expect(view.total).toBe(Object.values(counted).reduce((a, b) => a + b, 0));
}

async function expectActsTallied() {
  const [row = missing()] = await db().query<Record<string, string>>(
    `select (select count(*) from governance_proposals) as proposals,
            (select count(*) from governance_cosigns) as cosigns,
            (select count(*) from governance_ratifications) as ratifications`,
  );
  const lineage = (await get('/lineage')).json();
  expect(lineage.total_proposals).toBe(Number(row.proposals));
  const kept = await db().query<{ name: string; value: string }>(
    "select name, value from record_tallies where name like 'governance%' order by name",
  );
  expect(kept.map((k) => [k.name, Number(k.value)])).toEqual([
    ['governance_cosigns', Number(row.cosigns)],
    ['governance_proposals', Number(row.proposals)],
    ['governance_ratifications', Number(row.ratifications)],
  ]);
}

describe('order and governance tallies', () => {
  it('orders by status equal count(*) through filing, seconds, status moves and deletion', async () => {
    await expectOrdersTallied();
    const ids: string[] = [];
    for (const title of ['One', 'Two', 'Three']) {
      const res = await post('/sovereign/order', { title }, alice);
      expect(res.statusCode).toBe(200);
      ids.push(res.json().order_id);
    }
    expect((await post('/sovereign/second', { order: ids[1] }, bob)).statusCode).toBe(200);
    await expectOrdersTallied();
    // Status moves as a steward's decision writes them (one statement, any number of rows).
    await db().query("update orders set status = 'accepted' where id = any($1::text[])", [[ids[0], ids[1]]]);
    await db().query("update orders set status = 'applied' where id = $1", [ids[0]]);
    await db().query('update orders set seconds = seconds + 1');
    await expectOrdersTallied();
    expect((await get('/api/orders')).json().counts).toMatchObject({ recorded: 1, accepted: 1, applied: 1 });
    await db().query('delete from order_status_history where order_id = $1', [ids[2]]);
    await db().query('delete from orders where id = $1', [ids[2]]);
    await expectOrdersTallied();
  });

  it('proposals, cosigns and ratifications equal count(*) as acts are added and removed', async () => {
    await expectActsTallied();
    const proposed = await post(
      '/api/constitution/propose',
      { title: 'Tallies', text: 'Counts are kept, not counted.' },
      alice,
    );
    expect(proposed.statusCode).toBe(200);
    const id = proposed.json().proposal.id;
    expect((await post('/api/constitution/cosign', { proposal: id }, bob)).statusCode).toBe(200);
    await expectActsTallied();
    await db().query('delete from governance_cosigns where proposal_id = $1', [id]);
    await expectActsTallied();
  });
});
