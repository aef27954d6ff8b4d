/**
 * The answer check of the test suite (api/plugins/answer-check.ts, docs/testing.md): what it counts
 * as a departure from an operation's declared schema, and that a departure fails the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import Fastify from 'fastify';
import answerCheck, { answerDepartures, departuresOf, strictly } from '../../../api/plugins/answer-check.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';

const order = {
  id: 'ord_1',
  title: 'A title',
  detail: '',
  status: 'recorded',
  status_meaning: 'filed',
  status_at: '2026-11-22T12:00:00.000Z',
  seconds: 0,
  priority: 1,
  requester: { kind: 'sovereign', ref: 'sovereign:3fa9', display: '3fa9' },
  filed_at: '2026-11-22T12:00:00.000Z',
  receipt_id: 'rcpt_1',
  history: [],
};
const orders = {
  ok: true,
  schema: 'civitas.orders.v1',
  as_of: '2026-11-22T12:00:00.000Z',
  statuses: ['recorded'],
  counts: { recorded: 1, accepted: 0, applied: 0, declined: 0 },
  total: 1,
  order_by: 'priority',
  meaning: 'orders',
  orders: [order],
};

describe('what departs from a schema', () => {
  it('a 200 answer with every declared field passes', () => {
    expect(departuresOf('GET /api/orders', 200, orders)).toEqual([]);
  });

  it('an undeclared field departs, however deep', () => {
    expect(departuresOf('GET /api/orders', 200, { ...orders, extra: 1 })).toEqual([
      '(answer): undeclared field(s) extra',
    ]);
    const deep = { ...orders, orders: [{ ...order, requester: { ...order.requester, id: 'raw' } }] };
    expect(departuresOf('GET /api/orders', 200, deep)).toEqual([
      'orders.0.requester: undeclared field(s) id',
    ]);
  });

  it('a missing or mistyped field departs', () => {
    const { total: _total, ...missing } = orders;
    expect(departuresOf('GET /api/orders', 200, missing)).toHaveLength(1);
    expect(departuresOf('GET /api/orders', 200, { ...orders, total: '1' })[0]).toMatch(/^total: /);
  });

  it('loose objects and records stay open; a union member is chosen strictly', () => {
    const schema = strictly(
      z.object({
        open: z.looseObject({ a: z.number() }),
        map: z.record(z.string(), z.number()),
        either: z.union([z.object({ a: z.number() }), z.object({ a: z.number(), b: z.string() })]),
      }),
    );
    expect(schema.safeParse({ open: { a: 1, b: 2 }, map: { x: 1 }, either: { a: 1, b: 'x' } }).success).toBe(
      true,
    );
    expect(schema.safeParse({ open: { a: 1 }, map: {}, either: { a: 1, c: 1 } }).success).toBe(false);
  });

  it('a refusal is the one error shape, with the status its reason names', () => {
    const refusal = { ok: false, reason: 'not_found', hint: 'Nothing here.' };
    expect(departuresOf('GET /api/orders', 404, refusal)).toEqual([]);
    expect(departuresOf('GET /api/orders', 400, refusal)).toEqual(['reason not_found is a 404, not 400']);
    expect(departuresOf('GET /api/orders', 404, { ok: false, hint: 'x' })).not.toEqual([]);
    expect(departuresOf(undefined, 404, refusal)).toEqual([]);
  });

  it('JSON 200 from an operation without a declared response departs', () => {
    expect(departuresOf('GET /feed/pulse', 200, { ok: true })).toEqual([
      '(answer): GET /feed/pulse answers JSON but declares no response',
    ]);
  });
});

describe('the hook', () => {
  const COLLECTING = Symbol.for('civitas.answerDepartures.collecting');
  const holder = globalThis as { [key: symbol]: unknown };

  async function departing() {
    const app = Fastify();
    await app.register(answerCheck);
    app.get('/api/orders', async () => ({ ok: true, undeclared: 1 }));
    const res = await app.inject({ method: 'GET', url: '/api/orders' });
    await app.close();
    return res;
  }

  it('records a departure and, with a collector, leaves the answer as it is', async () => {
    const res = await departing();
    expect(res.statusCode).toBe(200);
    // Taken out here, so this file's own setup does not fail the test for it.
    const [found, ...more] = answerDepartures().splice(0);
    expect(more).toEqual([]);
    expect(found).toMatchObject({ key: 'GET /api/orders', status: 200, url: '/api/orders' });
    expect(found?.issues).toContain('(answer): undeclared field(s) undeclared');
  });

  it('without a collector (a child server process) answers 500 naming the departure', async () => {
    holder[COLLECTING] = false;
    try {
      const res = await departing();
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ ok: false, reason: 'internal_error' });
      expect(res.json().hint).toContain('undeclared field(s) undeclared');
    } finally {
      holder[COLLECTING] = true;
      answerDepartures().splice(0);
    }
  });
});

describe('the hook on a running app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('records nothing for answers that hold to their schema', async () => {
    const holder = globalThis as { [key: symbol]: unknown };
    const found = holder[Symbol.for('civitas.answerDepartures')] as unknown[];
    const http = requests(() => t.app);
    expect((await http.get('/api/orders')).statusCode).toBe(200);
    expect((await http.get('/api/receipt/nope')).statusCode).toBe(400);
    expect(found ?? []).toEqual([]);
  });
});
