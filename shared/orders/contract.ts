/**
 * The orders' operations: file, second and list requested changes (shared/contract.ts). The
 * order projection's type is `z.infer` of its schema here.
 */
import { z } from 'zod';
import { defineContracts, isoTime, optional, returnTo } from '../contract.ts';
import { ORDER_DETAIL_MAX, ORDER_ID, ORDER_STATUSES, ORDER_TITLE_MAX } from './order.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const status = z.enum(ORDER_STATUSES);

export const ordersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  status: optional(status),
});

/** The order id field of a form or body. */
export const orderIdField = z.string().trim().regex(ORDER_ID, 'order is an order id such as ord_01J…');

/** The one order projection: explicit fields; the requester through the actor_id projector. */
export const orderViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  detail: z.string(),
  status,
  status_meaning: z.string(),
  status_at: isoTime,
  seconds: count,
  priority: z.number().int().min(1).describe('1 + seconds'),
  requester: z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() }),
  filed_at: isoTime,
  receipt_id: z.string(),
  history: z.array(
    z.object({ status, at: isoTime, note: z.string().nullable(), receipt_id: z.string().nullable() }),
  ),
});
export type OrderView = z.infer<typeof orderViewSchema>;

export const ordersViewSchema = z.object({
  ok,
  schema: z.literal('civitas.orders.v1'),
  as_of: isoTime,
  statuses: z.array(status).readonly(),
  counts: z.record(status, count),
  total: count,
  order_by: z.string(),
  meaning: z.string(),
  orders: z.array(orderViewSchema),
});

export const ORDER_CONTRACTS = defineContracts({
  'POST /sovereign/order': {
    body: z.object({
      title: z
        .string()
        .trim()
        .min(1, 'title must not be empty')
        .max(ORDER_TITLE_MAX, `title is at most ${ORDER_TITLE_MAX} characters`),
      detail: optional(
        z.string().trim().max(ORDER_DETAIL_MAX, `detail is at most ${ORDER_DETAIL_MAX} characters`),
      ),
      return_to: returnTo,
    }),
    form: true,
    response: z.object({
      ok,
      order_id: z.string(),
      status: z.literal('recorded'),
      seconds: count,
      priority: z.number().int(),
      receipt_id: z.string(),
      meaning: z.string(),
    }),
  },
  'POST /sovereign/second': {
    body: z.object({ order: orderIdField, return_to: returnTo }),
    form: true,
    response: z.object({
      ok,
      order_id: z.string(),
      status,
      seconds: count,
      priority: z.number().int(),
      receipt_id: z.string(),
    }),
  },
  'GET /api/orders': { query: ordersQuery, response: ordersViewSchema },
  // The page's JSON twin answers the same projection.
  'GET /orders': { query: ordersQuery, response: ordersViewSchema },
});
