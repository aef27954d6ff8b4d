/**
 * The orders' operations: file, second and list requested changes (shared/contract.ts). The
 * order projection's type is `z.infer` of its schema here.
 */
import { z } from 'zod';
import { blank, isoTime, optional, returnTo } from '../contract.ts';
import { ORDER_DECISIONS, ORDER_ID, ORDER_NOTE_MAX, ORDER_STATUSES } from './order.ts';

export const ok = z.literal(true);
export const count = z.number().int().min(0);
export const status = z.enum(ORDER_STATUSES);

export const ordersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  status: optional(status),
});

/** The order id field of a form or body. */
export const orderIdField = z.string().trim().regex(ORDER_ID, 'order is an order id such as ord_01J…');

/** A steward's decision on an order (POST /steward/orders). */
export const decisionBody = z.object({
  order: orderIdField,
  action: z.enum(ORDER_DECISIONS, { error: 'action must be accept, apply or decline' }),
  note: z.preprocess(
    blank,
    z.string().trim().max(ORDER_NOTE_MAX, `note is at most ${ORDER_NOTE_MAX} characters`).optional(),
  ),
  return_to: returnTo,
});

/** What a decision answers: the order's step from one status to the next, with its receipt. */
export const decisionResult = z.object({
  ok: z.literal(true),
  order_id: z.string(),
  from: status,
  status,
  status_meaning: z.string(),
  note: z.string().nullable().describe('the public note of the steward, if any'),
  receipt_id: z.string(),
});

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
