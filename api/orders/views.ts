/**
 * Orders as they are read: the list (GET /api/orders, the /orders page), one order with its whole
 * history (/api/why/order:<id>) and the change status reported beside its receipts. The requester
 * leaves only through the actor_id projector.
 */
import { sql as fragment } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { RowOf } from '../db/rows.ts';
import type { ChangeStatus } from '../ledger/change-status.ts';
import type { Order } from './entities.ts';
import { orderCounts } from './tallies.ts';
import { count } from '../../shared/plural.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import {
  ORDER_ID,
  ORDER_STATUS_MEANING,
  ORDER_STATUSES,
  orderPriority,
  type OrderStatus,
} from '../../shared/orders/order.ts';
import type { OrderView } from '../../shared/orders/contract.ts';

export type { OrderView };

/** History steps taken in the same instant still read in lifecycle order. */
const LIFECYCLE_ORDER = fragment`case status when 'recorded' then 0 when 'accepted' then 1 else 2 end`;
/** A timestamp column as ISO text (UTC, milliseconds). */
const isoText = (column: string) =>
  fragment<string>`to_char(${fragment.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One order with its whole history, oldest step first (for /api/why/order:<id>). */
export async function orderById(sql: Sql, id: string) {
  if (!ORDER_ID.test(id)) return null;
  const [row] = await sql.kysely
    .selectFrom('orders')
    .select([
      'id',
      'title',
      'status',
      isoText('status_at').as('status_at'),
      'seconds',
      isoText('created_at').as('created_at'),
      'receipt_id',
    ])
    .where('id', '=', id)
    .execute();
  if (!row) return null;
  // `order by at` names the selected ISO text (an output column), as ordersView's history does.
  const history = await sql.kysely
    .selectFrom('order_status_history')
    .select(['status', 'note', isoText('at').as('at'), 'receipt_id'])
    .where('order_id', '=', id)
    .orderBy('at')
    .orderBy(LIFECYCLE_ORDER)
    .execute();
  return { ...row, seconds: row.seconds, history };
}

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
  const rows: OrderRow[] = await ctx.db.kysely
    .selectFrom('orders as o')
    .leftJoin('sovereigns as s', 's.id', 'o.requester_id')
    .select([
      'o.id',
      'o.title',
      'o.detail',
      'o.status',
      isoText('o.status_at').as('status_at'),
      'o.seconds',
      isoText('o.created_at').as('created_at'),
      'o.receipt_id',
      'o.requester_id',
      's.tag',
      's.callsign',
      's.callsign_visible',
      fragment<boolean>`s.erased_at is not null`.as('erased'),
    ])
    .$if(query.status !== undefined, (q) => q.where('o.status', '=', query.status!))
    .orderBy('o.seconds', 'desc')
    .orderBy('o.created_at')
    .orderBy('o.id')
    .limit(query.limit)
    .execute();
  const ids = rows.map((r) => r.id);
  const history = ids.length
    ? await ctx.db.kysely
        .selectFrom('order_status_history')
        .select(['order_id', 'status', isoText('at').as('at'), 'note', 'receipt_id'])
        .where((eb) => eb('order_id', '=', eb.fn.any(fragment<string[]>`${ids}::text[]`)))
        .orderBy('at')
        .orderBy(LIFECYCLE_ORDER)
        .execute()
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
  const [row] = await sql.kysely
    .selectFrom('orders')
    .select(['status', 'seconds', isoText('status_at').as('status_at')])
    .where('id', '=', ref)
    .execute();
  if (!row) return null;
  const seconds = row.seconds;
  return {
    subject,
    status: row.status,
    detail: `${ORDER_STATUS_MEANING[row.status]} Since ${row.status_at}; ${count(seconds, 'second', 'seconds')}, priority ${orderPriority(seconds)}.`,
    as_of: now.toISOString(),
  };
}
