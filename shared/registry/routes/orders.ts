import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, mutation, page } = family('orders');

/** Orders: requested changes, separate from the receipts that record them. */
export const ORDER_ROUTES: RouteShape[] = [
  mutation(
    '/sovereign/order',
    'File an order (a requested change to the service); the receipt records the step, not the change',
    { scope: 'sovereign:write' },
  ),
  mutation('/sovereign/second', "Second another sovereign's order to raise its priority", {
    scope: 'sovereign:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  api(
    '/api/orders',
    'Orders with their status (recorded, accepted, applied, declined) and seconds; no raw actor ids',
  ),
  page('/orders', 'Orders and what became of them, by status'),
  mutation('/steward/orders', 'Accept, apply or decline an order (with a receipt and a public note)', {
    operator: true,
    scope: 'steward:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
];
