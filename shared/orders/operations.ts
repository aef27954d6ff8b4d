/**
 * The orders operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { optional, returnTo } from '../contract.ts';
import { operations } from '../registry/operation.ts';
import {
  ok,
  count,
  decisionBody,
  decisionResult,
  orderIdField,
  status,
  ordersQuery,
  ordersViewSchema,
} from './contract.ts';
import { ORDER_TITLE_MAX, ORDER_DETAIL_MAX } from './order.ts';

const { api, mutation, page } = operations('orders');

/** Orders: requested changes, separate from the receipts that record them. */
export const ORDER_OPERATIONS = [
  mutation(
    '/sovereign/order',
    'File an order (a requested change to the service); the receipt records the step, not the change',
    {
      scope: 'sovereign:write',
      POST: {
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
    },
  ),
  mutation('/sovereign/second', "Second another sovereign's order to raise its priority", {
    scope: 'sovereign:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: {
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
  }),
  api(
    '/api/orders',
    'Orders with their status (recorded, accepted, applied, declined) and seconds; no raw actor ids',
    { GET: { query: ordersQuery, response: ordersViewSchema } },
  ),
  page('/orders', 'Orders and what became of them, by status', {
    // The page's JSON twin answers the same projection.
    GET: { query: ordersQuery, response: ordersViewSchema, policy: { cache: 'revalidate' } },
  }),
  mutation('/steward/orders', 'Accept, apply or decline an order (with a receipt and a public note)', {
    operator: true,
    scope: 'steward:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: {
      body: decisionBody,
      form: true,
      response: decisionResult,
      policy: { origin: 'form' },
    },
  }),
];
