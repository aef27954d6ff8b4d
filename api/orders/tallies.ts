import { sql as fragment } from 'kysely';
import type { Sql } from '../db/database.ts';
import { ORDER_STATUSES, type OrderStatus } from '../../shared/orders/order.ts';

/** Orders by status: tallies kept by the orders' triggers (migration 0069), not a count of every order ever filed. */
export async function orderCounts(sql: Sql): Promise<Record<OrderStatus, number>> {
  const tallies = await sql.kysely
    .selectFrom('record_tallies')
    .select([fragment<string>`substr(name, 15)`.as('status'), 'value as n'])
    .where(fragment<boolean>`left(name, 14) = 'orders_status:'`)
    .execute();
  const tallied = (s: OrderStatus) => tallies.find((t) => t.status === s)?.n ?? 0;
  return Object.fromEntries(ORDER_STATUSES.map((s) => [s, tallied(s)])) as Record<OrderStatus, number>;
}
