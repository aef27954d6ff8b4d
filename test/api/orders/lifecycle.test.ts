import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { requests } from '../../helpers/http.ts';

/**
 * Orders reach the end of their lifecycle (issue 12): a steward accepts, applies or declines an
 * order through the operator door, each step with its own receipt and a public note, and the
 * outcome shows in /api/orders, the order's receipts and /api/why/order:<id>.
 */
let t: TestApp;
let steward: TestSovereign;
let alice: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  alice = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get, post } = requests(() => t.app);
const orderOf = async (id: string) =>
  (await get('/api/orders')).json().orders.find((o: { id: string }) => o.id === id);

describe('a steward takes an order to its end', () => {
  it('accepts then applies, each with a receipt and a note; the listing, the receipts and why agree', async () => {
    const filed = (await post('/sovereign/order', { title: 'Add a dark theme' }, alice)).json();
    const accepted = await post(
      '/steward/orders',
      { order: filed.order_id, action: 'accept', note: 'Planned for the next release.' },
      steward,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      ok: true,
      from: 'recorded',
      status: 'accepted',
      note: 'Planned for the next release.',
    });
    const acceptReceipt = (await get(`/api/receipt/${accepted.json().receipt_id}`)).json();
    expect(acceptReceipt).toMatchObject({ step: 'orders.accept', subject: `order:${filed.order_id}` });

    const applied = await post('/steward/orders', { order: filed.order_id, action: 'apply' }, steward);
    expect(applied.json()).toMatchObject({ status: 'applied' });
    const order = await orderOf(filed.order_id);
    expect(order.status).toBe('applied');
    expect(order.history.map((h: { status: string }) => h.status)).toEqual([
      'recorded',
      'accepted',
      'applied',
    ]);
    expect(order.history[1]).toMatchObject({
      note: 'Planned for the next release.',
      receipt_id: accepted.json().receipt_id,
    });
    expect((await get('/api/orders')).json().counts).toMatchObject({ applied: 1, recorded: 0 });
    // The filing receipt reports the order's status beside it.
    expect((await get(`/api/receipt/${filed.receipt_id}`)).body).toContain('applied');

    const why = (await get(`/api/why/order:${filed.order_id}`)).json();
    expect(why).toMatchObject({ kind: 'order', state: { status: 'applied' } });
    expect(why.reasons.join(' ')).toContain('Planned for the next release.');
    expect(why.links['applied receipt']).toBe(`/receipt/${applied.json().receipt_id}`);
    expect(JSON.stringify(why)).not.toContain(alice.id);
    expect(JSON.stringify(why)).not.toContain(steward.id);

    // Nothing leaves applied; a second on it is refused.
    expect(
      (await post('/steward/orders', { order: filed.order_id, action: 'decline' }, steward)).statusCode,
    ).toBe(409);
    expect((await post('/sovereign/second', { order: filed.order_id }, steward)).statusCode).toBe(409);
  });

  it('declines a recorded order; apply before accept is refused', async () => {
    const filed = (await post('/sovereign/order', { title: 'Paint it purple' }, alice)).json();
    expect(
      (await post('/steward/orders', { order: filed.order_id, action: 'apply' }, steward)).statusCode,
    ).toBe(409);
    const declined = await post(
      '/steward/orders',
      { order: filed.order_id, action: 'decline', note: 'Out of scope.' },
      steward,
    );
    expect(declined.json()).toMatchObject({ status: 'declined' });
    expect((await get(`/api/receipt/${declined.json().receipt_id}`)).json().step).toBe('orders.decline');
    expect((await orderOf(filed.order_id)).status).toBe('declined');
    expect((await get(`/api/why/order:${filed.order_id}`)).json().reasons.join(' ')).toContain(
      'Out of scope.',
    );
  });

  it('refuses non-stewards, unknown orders and bad input; the door is not published', async () => {
    const filed = (await post('/sovereign/order', { title: 'Another' }, alice)).json();
    expect(
      (await post('/steward/orders', { order: filed.order_id, action: 'accept' }, alice)).statusCode,
    ).toBe(403);
    expect(
      (await post('/steward/orders', { order: 'ord_01KZZZZZZZZZZZZZZZZZZZZZZZ', action: 'accept' }, steward))
        .statusCode,
    ).toBe(404);
    expect(
      (await post('/steward/orders', { order: filed.order_id, action: 'explode' }, steward)).statusCode,
    ).toBe(400);
    expect(
      (
        await post(
          '/steward/orders',
          { order: filed.order_id, action: 'accept', note: 'x'.repeat(501) },
          steward,
        )
      ).statusCode,
    ).toBe(400);
    expect((await get(`/api/why/order:nope`)).statusCode).toBe(400);
    expect((await get(`/api/why/order:ord_01KZZZZZZZZZZZZZZZZZZZZZZZ`)).statusCode).toBe(404);
    const openapi = (await get('/openapi.json')).json();
    expect(Object.keys(openapi.paths)).not.toContain('/steward/orders');
    expect((await orderOf(filed.order_id)).status).toBe('recorded');
  });
});
