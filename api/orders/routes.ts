import type { FastifyReply } from 'fastify';
import { defineRoute, type RouteRequest } from '../route.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { stewardOnly } from '../http-steward.ts';
import { sessionOf } from '../plugins/session.ts';
import { decideOrder, fileOrder, secondOrder } from './service.ts';
import { ordersView } from './views.ts';

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
async function decisionDoor(request: RouteRequest<'POST /steward/orders'>, reply: FastifyReply) {
  const input = request.input.body;
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
