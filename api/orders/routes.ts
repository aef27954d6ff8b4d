import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute, parseInput } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { blank } from '../../shared/record/imprint.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { ORDER_DECISIONS, ORDER_DETAIL_MAX, ORDER_ID, ORDER_NOTE_MAX, ORDER_STATUSES, ORDER_TITLE_MAX } from '../../shared/orders/order.ts';
import { stewardOf, stewardOnly } from '../steward/http.ts';
import { decideOrder, fileOrder, ordersView, secondOrder } from './service.ts';

const returnField = z.preprocess(blank, z.string().max(2048).optional());

export const orderInput = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(ORDER_TITLE_MAX, `title is at most ${ORDER_TITLE_MAX} characters`),
  detail: z.preprocess(blank, z.string().trim().max(ORDER_DETAIL_MAX, `detail is at most ${ORDER_DETAIL_MAX} characters`).optional()),
  return_to: returnField,
});
const secondInput = z.object({
  order: z.string().trim().regex(ORDER_ID, 'order is an order id such as ord_01J…'),
  return_to: returnField,
});
const decisionInput = z.object({
  order: z.string().trim().regex(ORDER_ID, 'order is an order id such as ord_01J…'),
  action: z.enum(ORDER_DECISIONS, { error: 'action must be accept, apply or decline' }),
  note: z.preprocess(blank, z.string().trim().max(ORDER_NOTE_MAX, `note is at most ${ORDER_NOTE_MAX} characters`).optional()),
  return_to: returnField,
});
export const ordersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  status: z.preprocess(blank, z.enum(ORDER_STATUSES).optional()),
});

function me(request: FastifyRequest) {
  // The router already enforced sovereign:write; this narrows the type.
  if (!request.sovereign) throw new Refusal('identity_required');
  return request.sovereign;
}

async function orderDoor(request: FastifyRequest, reply: FastifyReply) {
  const input = parseInput(orderInput, request.body);
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await fileOrder(request.server.civitas, me(request), input);
  if (form) return seeOther(reply, withQuery(target, { filed: result.order_id, receipt: result.receipt_id }));
  return result;
}

async function secondDoor(request: FastifyRequest, reply: FastifyReply) {
  const input = parseInput(secondInput, request.body);
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await secondOrder(request.server.civitas, me(request), input.order);
  if (form) return seeOther(reply, withQuery(target, { seconded: result.order_id, receipt: result.receipt_id }));
  return result;
}

/** POST /steward/orders (operator, steward:write): accept, apply or decline an order, with a receipt. */
async function decisionDoor(request: FastifyRequest, reply: FastifyReply) {
  stewardOf(request);
  const input = parseInput(decisionInput, request.body);
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await decideOrder(request.server.civitas, input);
  stewardOnly(reply);
  if (form) return seeOther(reply, withQuery(target, { decided: result.order_id, receipt: result.receipt_id }));
  return result;
}

export const orderRoutes = [
  defineRoute('POST /steward/orders', { sameOrigin: 'form', handler: decisionDoor }),
  defineRoute('POST /sovereign/order', { handler: orderDoor }),
  defineRoute('POST /sovereign/second', { handler: secondDoor }),
  defineRoute('GET /api/orders', { handler: async (request) => ordersView(request.server.civitas, parseInput(ordersQuery, request.query)) }),
  defineRoute('GET /orders', { handler: async (request) => ordersView(request.server.civitas, parseInput(ordersQuery, request.query)), page: true }),
];
