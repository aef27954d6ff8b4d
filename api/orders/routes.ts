import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute, type RouteRequest } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { stewardOf, stewardOnly } from '../http-steward.ts';
import { decideOrder, fileOrder, ordersView, secondOrder } from './service.ts';

function me(request: FastifyRequest) {
  // The router already enforced sovereign:write; this narrows the type.
  if (!request.sovereign) throw new Refusal('identity_required');
  return request.sovereign;
}

async function orderDoor(request: RouteRequest<'POST /sovereign/order'>, reply: FastifyReply) {
  const input = request.input.body;
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await fileOrder(request.server.civitas, me(request), input);
  if (form) return seeOther(reply, withQuery(target, { filed: result.order_id, receipt: result.receipt_id }));
  return result;
}

async function secondDoor(request: RouteRequest<'POST /sovereign/second'>, reply: FastifyReply) {
  const input = request.input.body;
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/orders') : '/orders';
  const result = await secondOrder(request.server.civitas, me(request), input.order);
  if (form)
    return seeOther(reply, withQuery(target, { seconded: result.order_id, receipt: result.receipt_id }));
  return result;
}

/** POST /steward/orders (operator, steward:write): accept, apply or decline an order, with a receipt. */
async function decisionDoor(request: RouteRequest<'POST /steward/orders'>, reply: FastifyReply) {
  stewardOf(request);
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
  defineRoute('POST /steward/orders', { cache: 'private', sameOrigin: 'form', handler: decisionDoor }),
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
