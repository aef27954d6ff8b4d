import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { ERASED_TEXT, receiptIdsOf, touched } from '../personal-data-contract.ts';

/** Orders: a requested change and its seconds. The request's words are the person's; the status trail is the stewards'. */
export const ordersPersonalData: FamilyDeclaration = {
  family: 'orders',
  tables: [
    {
      table: 'orders',
      personal: {
        requester_id: "the requester's raw id",
        title: "the requester's words",
        detail: "the requester's words",
      },
      impersonal: ['id', 'status', 'receipt_id'],
      holder: { column: 'requester_id' },
      disposition: 'erase',
      why: `Title and detail deleted ("${ERASED_TEXT}"); the order, its status and seconds stay as an anonymous act.`,
    },
    {
      table: 'order_seconds',
      personal: { sovereign_id: "the seconder's raw id" },
      impersonal: ['order_id', 'receipt_id'],
      holder: { column: 'sovereign_id', unique: { columns: ['order_id'] } },
      disposition: 'keep',
      why: "Kept as an anonymous act: the order's priority stays true; no one is named.",
    },
    {
      table: 'order_status_history',
      personal: { note: "a steward's note on the order" },
      impersonal: ['order_id', 'status', 'receipt_id'],
      disposition: 'keep',
      keptWords: ['note'],
      why: "Kept: the steward's account of what became of the order, written in the role.",
    },
  ],
  async export(sql, subject) {
    const [orders, seconds, history] = await Promise.all([
      sql.kysely
        .selectFrom('orders')
        .select(['id', 'title', 'detail', 'status', 'seconds', 'created_at', 'status_at', 'receipt_id'])
        .where('requester_id', '=', subject.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      sql.kysely
        .selectFrom('order_seconds')
        .select(['order_id', 'created_at', 'receipt_id'])
        .where('sovereign_id', '=', subject.id)
        .orderBy('created_at')
        .execute(),
      sql.kysely
        .selectFrom('order_status_history as h')
        .innerJoin('orders as o', 'o.id', 'h.order_id')
        .select(['h.order_id', 'h.status', 'h.note', 'h.at', 'h.receipt_id'])
        .where('o.requester_id', '=', subject.id)
        .orderBy('h.at')
        .execute(),
    ]);
    return { orders, orders_seconded: seconds, order_status_history: history };
  },
  receiptIds: (sql, subject) =>
    receiptIdsOf(sql, [
      { table: 'orders', where: 'requester_id = $1', params: [subject.id] },
      { table: 'order_seconds', where: 'sovereign_id = $1', params: [subject.id] },
    ]),
  async erase(tx, subject) {
    const ids = [subject.id, subject.anonymousId];
    return {
      orders: await touched(
        tx,
        `update orders set requester_id = $2, title = '${ERASED_TEXT}', detail = '' where requester_id = $1`,
        ids,
      ),
      order_seconds: await touched(
        tx,
        'update order_seconds set sovereign_id = $2 where sovereign_id = $1',
        ids,
      ),
    };
  },
};
