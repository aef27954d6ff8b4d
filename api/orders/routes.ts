import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute, parseInput, type RouteRequest } from '../route.ts';
import { blank, returnTo } from '../../shared/contract.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { ORDER_DECISIONS, ORDER_NOTE_MAX } from '../../shared/orders/order.ts';
import { orderIdField } from '../../shared/orders/contract.ts';
import { stewardOnly } from '../http-steward.ts';
import { sessionOf } from '../plugins/session.ts';
import { decideOrder, fileOrder, ordersView, secondOrder } from './service.ts';

/** POST /steward/orders is an operator door without a contract: it checks the steward before the body. */
const decisionInput = z.object({
  order: orderIdField,
  action: z.enum(ORDER_DECISIONS, { error: 'action must be accept, apply or decline' }),
  note: z.preprocess(
    blank,
    z.string().trim().max(ORDER_NOTE_MAX, `note is at most ${ORDER_NOTE_MAX} characters`).optional(),
  ),
  return_to: returnTo,
});

async function orderDoor(request: RouteRequest<'POST /sovereign/order'>, reply: FastifyReply) {
  const input = request.input.body;
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await fileOrder(request.server.civitas, sessionOf(request), input);
  if (form) return seeOther(reply, withQuery(target, { filed: result.order_id, receipt: result.receipt_id }));
  return result;
}

async function secondDoor(request: RouteRequest<'POST /sovereign/second'>, reply: FastifyReply) {
  const input = request.input.body;
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await secondOrder(request.server.civitas, sessionOf(request), input.order);
  if (form)
    return seeOther(reply, withQuery(target, { seconded: result.order_id, receipt: result.receipt_id }));
  return result;
}

/** POST /steward/orders (operator, steward:write): accept, apply or decline an order, with a receipt. */
async function decisionDoor(request: FastifyRequest, reply: FastifyReply) {
  const input = parseInput(decisionInput, request.body);
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await decideOrder(request.server.civitas, input);
  stewardOnly(reply);
  if (form)
    return seeOther(reply, withQuery(target, { decided: result.order_id, receipt: result.receipt_id }));
  return result;
}

export const orderRoutes = [
  defineRoute('POST /steward/orders', { handler: decisionDoor }),
  defineRoute('POST /sovereign/order', { handler: orderDoor }),
  defineRoute('POST /sovereign/second', { handler: secondDoor }),
  defineRoute('GET /api/orders', {
    handler: async (request) => ordersView(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /orders', {
    handler: async (request) => ordersView(request.server.civitas, request.input.query),
    page: true,
  }),
];
