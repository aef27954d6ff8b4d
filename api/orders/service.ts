/**
 * Orders: requested changes to the service from sovereigns. Filing records status `recorded` and a
 * receipt (`orders.request`); the receipt proves the step, the status reports the change. Seconds
 * raise priority (1 + seconds). Accepting, applying and declining are steward decisions
 * (decideOrder, the operator door POST /steward/orders): each appends a history row with the
 * steward's public note and records its own receipt (`orders.accept|apply|decline`).
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one, type RowOf } from '../db/rows.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import type { ChangeStatus } from '../ledger/change-status.ts';
import type { Order } from './entities.ts';
import { orderCounts } from './tallies.ts';
import { Refusal } from '../../shared/errors.ts';
import { count } from '../../shared/plural.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import {
  ORDER_ID,
  ORDER_STATUS_MEANING,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  orderPriority,
  type OrderDecision,
  type OrderStatus,
} from '../../shared/orders/order.ts';
import type { OrderView } from '../../shared/orders/contract.ts';

/** History steps taken in the same instant still read in lifecycle order. */
const LIFECYCLE_ORDER = `case status when 'recorded' then 0 when 'accepted' then 1 else 2 end`;
const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

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
    const [order] = await tx.query<{ requester_id: string | null; status: OrderStatus }>(
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
      await tx.query<{ seconds: number }>(
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
    const [order] = await tx.query<{ status: OrderStatus }>(
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

/** One order with its whole history, oldest step first (for /api/why/order:<id>). */
export async function orderById(sql: Sql, id: string) {
  if (!ORDER_ID.test(id)) return null;
  const [row] = await sql.query<{
    id: string;
    title: string;
    status: OrderStatus;
    status_at: string;
    seconds: number;
    created_at: string;
    receipt_id: string;
  }>(
    `select id, title, status, ${ISO('status_at')} as status_at, seconds, ${ISO('created_at')} as created_at, receipt_id from orders where id = $1`,
    [id],
  );
  if (!row) return null;
  const history = await sql.query<{
    status: OrderStatus;
    note: string | null;
    at: string;
    receipt_id: string | null;
  }>(
    `select status, note, ${ISO('at')} as at, receipt_id from order_status_history where order_id = $1 order by at, ${LIFECYCLE_ORDER}`,
    [id],
  );
  return { ...row, seconds: row.seconds, history };
}

export type { OrderView };

/** An order as ordersView selects it: times as ISO text, the requester's public face from the left join. */
type OrderRow = Pick<
  RowOf<typeof Order>,
  'id' | 'title' | 'detail' | 'status' | 'seconds' | 'receipt_id' | 'requester_id'
> & {
  status_at: string;
  created_at: string;
  tag: string | null;
  callsign: string | null;
  callsign_visible: boolean | null;
  erased: boolean | null;
};

/** The one order projection: explicit fields; the requester through the actor_id projector. */
function projectOrder(row: OrderRow, history: OrderView['history']): OrderView {
  const seconds = row.seconds;
  return {
    id: row.id,
    title: row.title,
    detail: row.detail,
    status: row.status,
    status_meaning: ORDER_STATUS_MEANING[row.status],
    status_at: row.status_at,
    seconds,
    priority: orderPriority(seconds),
    requester: projectActorRef({
      actor_id: row.requester_id ?? '',
      kind: 'sovereign',
      tag: row.erased ? null : row.tag,
      callsign: row.erased ? null : row.callsign,
      callsign_visible: row.callsign_visible === true && !row.erased,
    }),
    filed_at: row.created_at,
    receipt_id: row.receipt_id,
    history,
  };
}

/** GET /api/orders: by priority (most seconded first), then age (oldest first). */
export async function ordersView(ctx: AppContext, query: { limit: number; status?: OrderStatus }) {
  const rows = await ctx.db.query<OrderRow>(
    `select o.id, o.title, o.detail, o.status, ${ISO('o.status_at')} as status_at, o.seconds, ${ISO('o.created_at')} as created_at, o.receipt_id,
            o.requester_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased
       from orders o left join sovereigns s on s.id = o.requester_id
      where ($1::text is null or o.status = $1)
      order by o.seconds desc, o.created_at, o.id
      limit $2`,
    [query.status ?? null, query.limit],
  );
  const ids = rows.map((r) => r.id);
  const history = ids.length
    ? await ctx.db.query<{
        order_id: string;
        status: OrderStatus;
        at: string;
        note: string | null;
        receipt_id: string | null;
      }>(
        `select order_id, status, ${ISO('at')} as at, note, receipt_id from order_status_history where order_id = any($1::text[]) order by at, ${LIFECYCLE_ORDER}`,
        [ids],
      )
    : [];
  const counts = await orderCounts(ctx.db);
  return {
    ok: true as const,
    schema: 'civitas.orders.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    statuses: ORDER_STATUSES,
    counts,
    total: ORDER_STATUSES.reduce((sum, s) => sum + counts[s], 0),
    order_by: 'priority (1 + seconds) descending, then filing time ascending',
    meaning:
      "An order is a requested change. Its receipt proves it was recorded; its status says what became of it. Accepting, applying and declining are steward decisions, each with its own receipt and a public note in the order's history.",
    orders: rows.map((row) =>
      projectOrder(
        row,
        history
          .filter((h) => h.order_id === row.id)
          .map((h) => ({ status: h.status, at: h.at, note: h.note, receipt_id: h.receipt_id })),
      ),
    ),
  };
}

/** Change status of `order:<id>`: the order's status beside its receipts (registered in api/families.ts). */
export async function orderChangeStatus(
  sql: Sql,
  ref: string,
  subject: string,
  now: Date,
): Promise<ChangeStatus | null> {
  if (!ORDER_ID.test(ref)) return null;
  const [row] = await sql.query<{ status: OrderStatus; seconds: number; status_at: string }>(
    `select status, seconds, ${ISO('status_at')} as status_at from orders where id = $1`,
    [ref],
  );
  if (!row) return null;
  const seconds = row.seconds;
  return {
    subject,
    status: row.status,
    detail: `${ORDER_STATUS_MEANING[row.status]} Since ${row.status_at}; ${count(seconds, 'second', 'seconds')}, priority ${orderPriority(seconds)}.`,
    as_of: now.toISOString(),
  };
}
