/**
 * Orders: requested changes to the service from sovereigns. Filing records status `recorded` and a
 * receipt (`orders.request`); the receipt proves the step, the status reports the change. Seconds
 * raise priority (1 + seconds). Accepting, applying and declining are steward decisions
 * (decideOrder, the operator door POST /steward/orders): each appends a history row with the
 * steward's public note and records its own receipt (`orders.accept|apply|decline`). The reads
 * (the list, one order, its change status) are in views.ts.
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import { one, type RowOf } from '../db/rows.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import type { Order } from './entities.ts';
import { Refusal } from '../../shared/errors.ts';
import {
  ORDER_STATUS_MEANING,
  ORDER_TRANSITIONS,
  orderPriority,
  type OrderDecision,
} from '../../shared/orders/order.ts';

/** The order's row as its steps lock it (`for update`) and move it. */
type OrderRow = RowOf<typeof Order>;

export async function fileOrder(ctx: AppContext, me: SignedIn, input: { title: string; detail?: string }) {
  const now = ctx.clock.now();
  const id = newId('ord', now);
  return ctx.db.transaction(async (tx) => {
    const receipt = await recordReceipt(tx, { step: 'orders.request', subject: `order:${id}`, at: now });
    await tx.query(
      `insert into orders (id, title, detail, requester_id, status, seconds, created_at, status_at, receipt_id)
       values ($1, $2, $3, $4, 'recorded', 0, $5, $5, $6)`,
      [id, input.title, input.detail ?? '', me.sovereignId, now.toISOString(), receipt.id],
    );
    await tx.query(
      `insert into order_status_history (order_id, status, note, at, receipt_id) values ($1, 'recorded', null, $2, $3)`,
      [id, now.toISOString(), receipt.id],
    );
    return {
      ok: true as const,
      order_id: id,
      status: 'recorded' as const,
      seconds: 0,
      priority: orderPriority(0),
      receipt_id: receipt.id,
      meaning:
        "The receipt proves the order was recorded; the order's status (recorded → accepted → applied / declined) is reported separately.",
    };
  });
}

export async function secondOrder(ctx: AppContext, me: SignedIn, orderId: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [order] = await tx.query<Pick<OrderRow, 'requester_id' | 'status'>>(
      'select requester_id, status from orders where id = $1 for update',
      [orderId],
    );
    if (!order)
      throw new Refusal('not_found', { order: orderId }, `No order ${orderId} is recorded. See /api/orders.`);
    if (order.requester_id === me.sovereignId)
      throw new Refusal(
        'conflict',
        { order: orderId },
        'You filed this order; a second must come from another sovereign.',
      );
    if (order.status === 'applied' || order.status === 'declined') {
      throw new Refusal(
        'conflict',
        { order: orderId, status: order.status },
        `This order is ${order.status}; only recorded or accepted orders take seconds.`,
      );
    }
    const [inserted] = await tx.query(
      `insert into order_seconds (order_id, sovereign_id, created_at, receipt_id) values ($1, $2, $3, '') on conflict do nothing returning order_id`,
      [orderId, me.sovereignId, now.toISOString()],
    );
    if (!inserted)
      throw new Refusal(
        'conflict',
        { order: orderId },
        'You already seconded this order; one second per sovereign.',
      );
    const receipt = await recordReceipt(tx, { step: 'orders.second', subject: `order:${orderId}`, at: now });
    await tx.query('update order_seconds set receipt_id = $3 where order_id = $1 and sovereign_id = $2', [
      orderId,
      me.sovereignId,
      receipt.id,
    ]);
    const row = one(
      await tx.query<Pick<OrderRow, 'seconds'>>(
        'update orders set seconds = seconds + 1 where id = $1 returning seconds',
        [orderId],
      ),
    );
    const seconds = row.seconds;
    return {
      ok: true as const,
      order_id: orderId,
      status: order.status,
      seconds,
      priority: orderPriority(seconds),
      receipt_id: receipt.id,
    };
  });
}

/**
 * A steward's decision: moves the order along its lifecycle (ORDER_TRANSITIONS), appends the
 * history row (with the steward's note, which is public) and records the step's receipt. The
 * steward is not named: the receipt proves the step was taken, by someone holding steward:write.
 */
export async function decideOrder(
  ctx: AppContext,
  input: { order: string; action: OrderDecision; note?: string },
) {
  const now = ctx.clock.now();
  const rule = ORDER_TRANSITIONS[input.action];
  return ctx.db.transaction(async (tx) => {
    const [order] = await tx.query<Pick<OrderRow, 'status'>>(
      'select status from orders where id = $1 for update',
      [input.order],
    );
    if (!order)
      throw new Refusal(
        'not_found',
        { order: input.order },
        `No order ${input.order} is recorded. See /api/orders.`,
      );
    if (!rule.from.includes(order.status)) {
      throw new Refusal(
        'conflict',
        { order: input.order, status: order.status },
        `This order is ${order.status}; ${input.action} applies to ${rule.from.join(' or ')} orders.`,
      );
    }
    const receipt = await recordReceipt(tx, {
      step: `orders.${input.action}`,
      subject: `order:${input.order}`,
      at: now,
    });
    await tx.query('update orders set status = $2, status_at = $3 where id = $1', [
      input.order,
      rule.to,
      now.toISOString(),
    ]);
    await tx.query(
      'insert into order_status_history (order_id, status, note, at, receipt_id) values ($1, $2, $3, $4, $5)',
      [input.order, rule.to, input.note ?? null, now.toISOString(), receipt.id],
    );
    return {
      ok: true as const,
      order_id: input.order,
      from: order.status,
      status: rule.to,
      status_meaning: ORDER_STATUS_MEANING[rule.to],
      note: input.note ?? null,
      receipt_id: receipt.id,
    };
  });
}
