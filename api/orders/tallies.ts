import { sql as fragment } from 'kysely';
import type { Sql } from '../db/database.ts';
import { constant } from '../db/kysely.ts';
import { ORDER_STATUSES, type OrderStatus } from '../../shared/orders/order.ts';

/**
 * Orders by status: tallies kept by the orders' triggers (migration 0069), not a count of every
 * order ever filed — four rows read by key (a filter on `left(name, 14)` read every tally row and
 * each of its dead versions).
 */
export async function orderCounts(sql: Sql): Promise<Record<OrderStatus, number>> {
  const tallies = await sql.kysely
    .selectFrom('record_tallies')
    .select([fragment<string>`substr(name, 15)`.as('status'), 'value as n'])
    .where(
      'name',
      'in',
      ORDER_STATUSES.map((status) => constant(`orders_status:${status}`)),
    )
    .execute();
  const tallied = (s: OrderStatus) => tallies.find((t) => t.status === s)?.n ?? 0;
  return Object.fromEntries(ORDER_STATUSES.map((s) => [s, tallied(s)])) as Record<OrderStatus, number>;
}
