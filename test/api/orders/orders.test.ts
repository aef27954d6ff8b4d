import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
let alice: TestSovereign;
let bob: TestSovereign;
let carol: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signedInSovereign(t.app, { callsign: 'Alice' });
  bob = await signedInSovereign(t.app);
  carol = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get, post, form } = requests(() => t.app);

describe('orders: file, second, list', () => {
  let first: string;
  let second: string;

  it('lists nothing before any order is filed', async () => {
    const res = await get('/api/orders');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      orders: [],
      total: 0,
      counts: { recorded: 0, accepted: 0, applied: 0, declined: 0 },
    });
  });

  it('files an order (status recorded, receipt orders.request) whose receipt reports the status beside it', async () => {
    const res = await post(
      '/sovereign/order',
      { title: 'Add a dark theme', detail: 'For night readers.' },
      alice,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, status: 'recorded', seconds: 0, priority: 1 });
    expect(body.order_id).toMatch(/^ord_[0-9A-Z]{26}$/);
    first = body.order_id;
    const receipt = (await get(`/api/receipt/${body.receipt_id}`)).json();
    expect(receipt.step).toBe('orders.request');
    expect(receipt.subject).toBe(`order:${first}`);
    expect(receipt.change_status).toMatchObject({ subject: `order:${first}`, status: 'recorded' });
  });

  it('answers a browser form with 303 to a local page and refuses off-origin return targets', async () => {
    const res = await form(
      '/sovereign/order',
      { title: 'Weekly digest by mail', detail: '', return_to: '/orders' },
      bob,
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/orders\?filed=ord_/);
    second = new URL(res.headers.location as string, 'http://x').searchParams.get('filed')!;
    const off = await form('/sovereign/order', { title: 'x', return_to: 'https://evil.example/' }, bob);
    expect(off.statusCode).toBe(400);
    expect(off.json().reason).toBe('off_origin_target');
  });

  it('refuses empty, too long and malformed orders with invalid_request, and anonymous callers with 401', async () => {
    for (const payload of [
      {},
      { title: '' },
      { title: '   ' },
      { title: 'x'.repeat(121) },
      { title: 'ok', detail: 'd'.repeat(2001) },
      { title: 42 },
    ]) {
      const res = await post('/sovereign/order', payload, alice);
      expect(res.statusCode).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
    expect(
      (await post('/sovereign/order', { title: 'x'.repeat(120), detail: 'd'.repeat(2000) }, alice))
        .statusCode,
    ).toBe(200);
    const anon = await post('/sovereign/order', { title: 'no session' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().reason).toBe('identity_required');
  });

  it('seconds raise priority; one second per sovereign; never your own; unknown orders 404', async () => {
    const own = await post('/sovereign/second', { order: first }, alice);
    expect(own.statusCode).toBe(409);
    const res = await post('/sovereign/second', { order: first }, bob);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ seconds: 1, priority: 2 });
    const again = await post('/sovereign/second', { order: first }, bob);
    expect(again.statusCode).toBe(409);
    expect(again.json().reason).toBe('conflict');
    expect(
      (await post('/sovereign/second', { order: 'ord_01J00000000000000000000000' }, bob)).statusCode,
    ).toBe(404);
    expect((await post('/sovereign/second', { order: 'nope' }, bob)).statusCode).toBe(400);
    expect((await post('/sovereign/second', {}, bob)).statusCode).toBe(400);
    expect((await post('/sovereign/second', { order: first })).statusCode).toBe(401);
  });

  it('concurrent seconds by the same sovereign count once', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => post('/sovereign/second', { order: second }, carol)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(3);
    const [row = missing()] = await t.database.db.query<{ seconds: number }>(
      'select seconds from orders where id = $1',
      [second],
    );
    expect(Number(row.seconds)).toBe(1);
    const receipts = await t.database.db.query('select id from receipts where step = $1 and subject = $2', [
      'orders.second',
      `order:${second}`,
    ]);
    expect(receipts).toHaveLength(1);
  });

  it('lists by priority then age, the requester by public ref only, with history; the page twin agrees', async () => {
    await post('/sovereign/second', { order: first }, carol);
    const view = (await get('/api/orders')).json();
    expect(view.total).toBe(3);
    expect(view.orders.map((o: { id: string }) => o.id).slice(0, 2)).toEqual([first, second]);
    const top = view.orders[0];
    expect(top).toMatchObject({
      status: 'recorded',
      seconds: 2,
      priority: 3,
      requester: { kind: 'sovereign', ref: `sovereign:${alice.tag}`, display: `sovereign:${alice.tag}` },
    });
    expect(top.history).toEqual([
      { status: 'recorded', at: expect.any(String), note: null, receipt_id: expect.stringMatching(/^rcpt_/) },
    ]);
    const text = JSON.stringify(view);
    for (const who of [alice, bob, carol]) expect(text).not.toContain(who.id);
    expect(text).not.toContain('Alice'); // callsign not visible
    expect(view.orders[0]).not.toHaveProperty('requester_id');
    expect((await get('/api/orders?status=declined')).json().orders).toEqual([]);
    expect((await get('/api/orders?status=bogus')).statusCode).toBe(400);
    expect((await get('/api/orders?limit=0')).statusCode).toBe(400);
    const page = (await get('/orders')).json();
    expect(page.orders).toEqual(view.orders.map((o: object) => o));
    const declinedOrder = view.orders[2].id;
    await t.database.db.query(`update orders set status = 'declined' where id = $1`, [declinedOrder]);
    expect((await post('/sovereign/second', { order: declinedOrder }, carol)).statusCode).toBe(409);
  });
});
