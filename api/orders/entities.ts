/**
 * The orders family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { ORDER_STATUSES } from '../../shared/orders/order.ts';

/** A requested change to the service, seconded by sovereigns and moved through its statuses by a steward. */
export const Order = defineEntity({
  name: 'Order',
  tableName: 'orders',
  properties: {
    id: p.text().primary(),
    title: p.text(),
    detail: p.text().default(''),
    requesterId: p.uuid().nullable(),
    status: p.enum(ORDER_STATUSES).default('recorded'),
    seconds: p.integer().default(0),
    createdAt: p.datetime(),
    statusAt: p.datetime(),
    receiptId: p.text(),
  },
});

/** One step of an order's status history, 'recorded' first. */
export const OrderStatusChange = defineEntity({
  name: 'OrderStatusChange',
  tableName: 'order_status_history',
  properties: {
    orderId: p.text().primary(),
    at: p.datetime().primary(),
    status: p.enum(ORDER_STATUSES).primary(),
    note: p.text().nullable(),
    receiptId: p.text().nullable(),
  },
});

/** One sovereign's second of an order. */
export const OrderSecond = defineEntity({
  name: 'OrderSecond',
  tableName: 'order_seconds',
  properties: {
    orderId: p.text().primary(),
    sovereignId: p.uuid().primary(),
    createdAt: p.datetime(),
    receiptId: p.text(),
  },
});
