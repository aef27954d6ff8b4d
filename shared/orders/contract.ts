/**
 * The orders' operations: file, second and list requested changes (shared/contract.ts). The
 * order projection's type is `z.infer` of its schema here.
 */
import { z } from 'zod';
import { isoTime, optional } from '../contract.ts';
import { ORDER_ID, ORDER_STATUSES } from './order.ts';

export const ok = z.literal(true);
export const count = z.number().int().min(0);
export const status = z.enum(ORDER_STATUSES);

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
