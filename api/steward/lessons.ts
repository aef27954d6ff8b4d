import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { heldSummary, recordCounts } from '../record/queries.ts';
import { Refusal } from '../../shared/errors.ts';
import type { RowOf } from '../db/rows.ts';
import { Lesson } from './entities.ts';
import type { Imprint } from '../record/entities.ts';

export { MAX_LESSON_BODY, MAX_LESSON_SOURCES } from '../../shared/steward/contract.ts';

/**
 * POST /steward/lesson: a lesson distilled from non-quarantined imprints only (DESIGN.md: lessons
 * come from collective learning, which excludes held and unattested imprints). Every source must
 * exist and be neither held nor unattested; otherwise 400 naming each offending one.
 */
export async function recordLesson(
  ctx: AppContext,
  steward: SignedIn,
  input: { title: string; body: string; from: number[] },
) {
  const now = ctx.clock.now();
  const sources = [...new Set(input.from)].sort((a, b) => a - b);
  return ctx.db.transaction(async (tx) => {
    // Raw: the sources stay locked `for share` until the lesson commits, so none is held in between.
    const rows = await tx.query<Pick<RowOf<typeof Imprint>, 'sequence' | 'held' | 'unattested'>>(
      'select sequence, held, unattested from imprints where sequence = any($1::bigint[]) for share',
      [sources],
    );
    const found = new Map(rows.map((row) => [row.sequence, row]));
    const offending: { sequence: number; problem: 'not_found' | 'held' | 'unattested' }[] = [];
    for (const sequence of sources) {
      const row = found.get(sequence);
      if (!row) offending.push({ sequence, problem: 'not_found' });
      else if (row.held) offending.push({ sequence, problem: 'held' });
      else if (row.unattested) offending.push({ sequence, problem: 'unattested' });
    }
    if (offending.length) {
      const words = {
        not_found: 'is not recorded',
        held: 'is held (quarantined by the gate)',
        unattested: 'is unattested (quarantined from collective learning)',
      };
      throw new Refusal('invalid_request', {
        issues: [
          {
            path: 'from',
            message: `Lessons come from non-quarantined imprints only: ${offending.map((o) => `#${o.sequence} ${words[o.problem]}`).join('; ')}.`,
          },
        ],
        offending,
      });
    }
    const id = newId('lsn', now);
    const receipt = await recordReceipt(tx, { step: 'steward.lesson', subject: `lesson:${id}`, at: now });
    await tx.query(
      `insert into lessons (id, title, body, sources, steward, status, created_at, receipt_id) values ($1, $2, $3, $4::bigint[], $5, 'active', $6, $7)`,
      [id, input.title, input.body, sources, `sovereign:${steward.tag}`, now.toISOString(), receipt.id],
    );
    return {
      ok: true as const,
      lesson: {
        id,
        title: input.title,
        body: input.body,
        sources,
        recorded_at: now.toISOString(),
        receipt_id: receipt.id,
      },
      receipt: `/receipt/${receipt.id}`,
    };
  });
}

/**
 * GET /api/hive/lessons and civitas_lessons: public lessons, newest first, each with its receipt id
 * and source sequence numbers. What collective learning excludes appears only as counts (held
 * through the held_spam projector).
 */
export async function lessonsView(ctx: AppContext, options: { limit: number }) {
  const [rows, total, held, counts] = await Promise.all([
    ctx.db.query<
      Pick<RowOf<typeof Lesson>, 'id' | 'title' | 'body' | 'sources' | 'created_at' | 'receipt_id'>
    >(
      "select id, title, body, sources, created_at, receipt_id from lessons where status = 'active' order by created_at desc, id desc limit $1",
      [options.limit],
    ),
    ctx.db.em().count(Lesson, { status: 'active' }),
    heldSummary(ctx.db),
    recordCounts(ctx.db),
  ]);
  return {
    ok: true as const,
    schema: 'civitas.lessons.v1' as const,
    total,
    lessons: rows.map((row) => ({
      id: row.id,
      title: row.title,
      body: row.body,
      sources: row.sources.map(Number),
      recorded_at: new Date(row.created_at).toISOString(),
      receipt_id: row.receipt_id,
    })),
    excluded_from_learning: { held: held.held, held_reasons: held.reasons, unattested: counts.unattested },
    principle:
      'Lessons come from non-quarantined imprints only: held and unattested imprints never feed collective learning. A steward distils each lesson and cites its sources; its receipt proves it was recorded.',
  };
}
