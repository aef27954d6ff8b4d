import { splitKey, talliesUnder } from '../db/tallies.ts';
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { RowOf } from '../db/rows.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import type { Feedback } from './entities.ts';

import { FEEDBACK_STATUSES, FEEDBACK_TOPICS, type FeedbackTopic } from '../../shared/record/contract.ts';
import { constant } from '../db/kysely.ts';
import { decodeCursor, instantKey, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';

export { FEEDBACK_STATUSES, FEEDBACK_TOPICS, type FeedbackTopic };

/** Who sent feedback: a signed-in sovereign, an agent that proved its handle, or nobody named. */
export interface Reporter {
  kind: 'sovereign' | 'agent' | 'anonymous';
  /** Raw sovereign id or handle: private, never published. */
  ref: string | null;
  /** Public form for receipts: the sovereign's tag or the handle. */
  publicRef?: string;
}

/** POST /feedback/report. */
export async function reportFeedback(
  ctx: AppContext,
  input: { topic: FeedbackTopic; body: string },
  reporter: Reporter,
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const id = newId('fb', now);
    const receipt = await recordReceipt(tx, { step: 'record.feedback', subject: `feedback:${id}`, at: now });
    await tx.query(
      `insert into feedback (id, topic, body, reporter_kind, reporter_ref, status, created_at, receipt_id)
       values ($1, $2, $3, $4, $5, 'open', $6, $7)`,
      [id, input.topic, input.body, reporter.kind, reporter.ref, now.toISOString(), receipt.id],
    );
    return {
      ok: true as const,
      feedback_id: id,
      topic: input.topic,
      status: 'open' as const,
      receipt_id: receipt.id,
      mine: reporter.kind === 'anonymous' ? null : '/feedback/mine',
    };
  });
}

/** GET /api/feedback: counts by topic and status. No reporter, no body. */
export async function feedbackOverview(ctx: AppContext) {
  // `feedback:<topic>:<status>`, kept by triggers (migration 0086): no scan of every report.
  const rows = (await talliesUnder(ctx.db, 'feedback:')).map(({ key, value }) => {
    const [topic, status] = splitKey(key);
    return { topic, status, n: value };
  });
  const by_topic: Record<string, Record<string, number>> = {};
  for (const topic of FEEDBACK_TOPICS)
    by_topic[topic] = Object.fromEntries(FEEDBACK_STATUSES.map((s) => [s, 0]));
  let total = 0;
  for (const row of rows) {
    const topic = by_topic[row.topic];
    if (!(topic && Object.hasOwn(topic, row.status))) continue;
    topic[row.status] = row.n;
    total += row.n;
  }
  return {
    ok: true as const,
    schema: 'civitas.feedback.v1' as const,
    total,
    topics: [...FEEDBACK_TOPICS],
    statuses: [...FEEDBACK_STATUSES],
    by_topic,
    how: 'POST /feedback/report with topic and body (signed in, as an agent with its continuity proof, or unnamed). Your own reports: /feedback/mine.',
  };
}

/**
 * A reporter's reports, newest first, a page at a time: keyed on when each was sent, then its id,
 * along feedback_reporter_newest (migration 0095), so a page costs its own rows, not the reporter's
 * whole history.
 */
export const MY_FEEDBACK_ORDER: KeyOrder = {
  path: '/feedback/mine',
  columns: [
    { sql: 'created_at', type: 'timestamptz' },
    { sql: 'id', type: 'text' },
  ],
  order: 'desc',
};

/** GET /feedback/mine: one page of the reporter's own reports and their status (bodies of withdrawn ones are gone). */
export async function myFeedback(
  ctx: AppContext,
  reporter: Reporter,
  query: { limit: number; after?: string; agent?: string },
) {
  const cursor = decodeCursor(MY_FEEDBACK_ORDER, query.after);
  const key = keyClause(MY_FEEDBACK_ORDER, cursor, 4);
  // Raw: a keyset page (api/paging.ts); `status <> 'withdrawn'` is the partial index's predicate.
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Feedback>, 'id' | 'topic' | 'body' | 'status' | 'created_at' | 'receipt_id'> & {
      created_key: string;
    }
  >(
    `select id, topic, body, status, created_at, receipt_id, ${instantKey('created_at')} as created_key from feedback
      where reporter_kind = $1 and reporter_ref = $2 and status <> 'withdrawn' and ${key.where}
      order by ${key.orderBy} limit $3`,
    [reporter.kind, reporter.ref, query.limit + 1, ...key.params],
  );
  const page = pageOf(rows, query.limit, cursor, (row) => [row.created_key, row.id]);
  return {
    ok: true as const,
    as: reporter.kind,
    // An agent's links name it again (its proof travels in a header, never in a link).
    ...pageFields(MY_FEEDBACK_ORDER, page, query.limit, { agent: query.agent, limit: query.limit }),
    reports: page.rows.map((row) => ({
      id: row.id,
      topic: row.topic,
      body: row.body,
      status: row.status,
      created_at: new Date(row.created_at).toISOString(),
      receipt_id: row.receipt_id,
    })),
  };
}

/** POST /feedback/mine/clear: withdraw every open report of the reporter; bodies are deleted. */
export async function clearMyFeedback(ctx: AppContext, reporter: Reporter) {
  if (reporter.kind === 'anonymous' || !reporter.ref) throw new Refusal('identity_required');
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const cleared = await tx.kysely
      .updateTable('feedback')
      .set({ status: 'withdrawn', body: null, withdrawn_at: now.toISOString() })
      .where('reporter_kind', '=', reporter.kind)
      .where('reporter_ref', '=', reporter.ref)
      .where('status', '<>', constant('withdrawn'))
      .returning('id')
      .execute();
    const subject =
      reporter.kind === 'agent' ? `agent:${reporter.ref}` : `sovereign:${reporter.publicRef ?? ''}`;
    const receipt = await recordReceipt(tx, { step: 'record.feedback_clear', subject, at: now });
    return { ok: true as const, cleared: cleared.length, receipt_id: receipt.id };
  });
}
