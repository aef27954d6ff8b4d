/**
 * The prevention experiment (GET/POST /api/experiments/prevention, page /experiments): does the
 * spam gate's burst rule prevent floods? Measured from the stored Record over 30 days: imprints
 * accepted, held by rule, and "flood minutes" — an author with more than BURST_LIMIT accepted
 * imprints in one UTC minute, which the burst rule exists to prevent. The threshold is the gate's
 * own (shared/record/gate.ts): the gate accepts BURST_LIMIT in its window and holds the next, so a
 * minute at exactly BURST_LIMIT is the gate working, not a flood getting through. A run (POST, signed in)
 * stores the figures of that moment and an optional proposed variation, with a receipt. The
 * runner is not stored or shown (the receipt proves the step, not who took it).
 *
 * The findings are 30 days of imprints per day and author-minute, so neither a request nor the job
 * counts them from the rows: the job keeps them (keptPrevention, api/db/kept-views.ts), each run
 * taking in only the imprints written since the last and the days whose counted rows changed
 * (prevention-counts.ts), and the request reads the stored answer, whose `as_of` says when it
 * was computed. A study run (POST) brings the counts up to its moment the same way and keeps them.
 */
import { newId } from '../../ids.ts';
import type { z } from 'zod';
import { HOLD_REASONS } from '../../../shared/boundaries/projectors/spam.ts';
import { BURST_LIMIT, BURST_WINDOW_MS } from '../../../shared/record/gate.ts';
import type { AppContext } from '../../context.ts';
import { recordReceipt } from '../../ledger/receipts.ts';
import {
  countFromRows,
  countPrevention,
  EXPERIMENT_DAYS,
  readCounts,
  windowOf,
  type Counted,
  type DayCounts,
} from './prevention-counts.ts';
import type {
  paradoxFindingsSchema,
  preventionFindingsSchema,
} from '../../../shared/organism/contract/experiments.ts';
import { one } from '../../db/rows.ts';
import { readKept, type KeptView } from '../../db/kept-views.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../../db/kysely.ts';

export { EXPERIMENT_DAYS };
export const RUNS_SHOWN = 20;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export type Study = 'experiment:prevention' | 'expedition:recovery-paradox';
/** What a run of each study keeps: the findings of its moment (shared/organism/contract/experiments.ts). */
interface StudyFindings {
  'experiment:prevention': PreventionFindings;
  'expedition:recovery-paradox': ParadoxFindings;
}
type PreventionFindings = z.infer<typeof preventionFindingsSchema>;
type ParadoxFindings = z.infer<typeof paradoxFindingsSchema>;

/** Stores one run of a study with its figures, inside the transaction of its receipt. */
export async function recordRun<S extends Study>(
  ctx: AppContext,
  study: S,
  variation: string | null,
  findings: StudyFindings[S],
) {
  const now = ctx.clock.now();
  const id = newId('run', now);
  return ctx.db.transaction(async (tx) => {
    const receipt = await recordReceipt(tx, {
      step: 'organism.study.run',
      subject: `${study}:${id}`,
      at: now,
    });
    await tx.query(
      'insert into organism_runs (id, study, ran_at, variation, findings, receipt_id) values ($1, $2, $3, $4, $5::jsonb, $6)',
      [id, study, now.toISOString(), variation, JSON.stringify(findings), receipt.id],
    );
    return {
      id,
      ran_at: now.toISOString(),
      variation,
      findings,
      receipt_id: receipt.id,
      receipt: `/receipt/${receipt.id}`,
    };
  });
}

/** The latest runs of a study; each row's findings were written by recordRun for that study. */
export async function listRuns<S extends Study>(ctx: AppContext, study: S) {
  const rows = await ctx.db.kysely
    .selectFrom('organism_runs')
    .select([
      'id',
      fragment<string>`to_char(ran_at at time zone 'UTC', ${fragment.raw(ISO)})`.as('ran_at'),
      'variation',
      fragment<StudyFindings[S]>`findings`.as('findings'),
      'receipt_id',
    ])
    .where('study', '=', study)
    .orderBy('ran_at', 'desc')
    .orderBy('id', 'desc')
    .limit(constant(RUNS_SHOWN))
    .execute();
  const count = one(
    await ctx.db.kysely
      .selectFrom('organism_runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('study', '=', study)
      .execute(),
  );
  return {
    total: count.n,
    latest: rows.map((r) => ({
      id: r.id,
      ran_at: r.ran_at,
      variation: r.variation,
      findings: r.findings,
      receipt_id: r.receipt_id,
      receipt: `/receipt/${r.receipt_id}`,
    })),
  };
}

/** The findings of the window's per-day counts (kept or counted from the rows: the same shape). */
function findingsOf(days: DayCounts[], now: Date): PreventionFindings {
  const { since } = windowOf(now);
  const byDay = days.map((d) => {
    const held = Object.values(d.held).reduce((s, n) => s + n, 0);
    const burst = d.held.burst ?? 0;
    return {
      date: d.date,
      accepted: d.accepted,
      held_burst: burst,
      held_other: held - burst,
      flood_minutes: d.flood_minutes,
    };
  });
  const sum = (k: 'accepted' | 'held_burst' | 'held_other' | 'flood_minutes') =>
    byDay.reduce((s, d) => s + d[k], 0);
  const held = sum('held_burst');
  const leaked = sum('flood_minutes');
  const verdict =
    held === 0 && leaked === 0 ? 'no_bursts_seen' : leaked === 0 ? 'prevented' : 'floods_got_through';
  return {
    from: since.toISOString(),
    to: now.toISOString(),
    accepted: sum('accepted'),
    held_by_rule: Object.keys(HOLD_REASONS).map((rule) => ({
      rule,
      reason: HOLD_REASONS[rule as keyof typeof HOLD_REASONS],
      held: days.reduce((s, d) => s + (d.held[rule] ?? 0), 0),
    })),
    held_burst: held,
    flood_minutes: leaked,
    verdict,
    by_day: byDay,
  };
}

/**
 * The findings counted from the imprints of the whole window (30 days of rows): what the kept
 * counts must equal. The operator's check and the tests' reference; no request or job reads it.
 */
export async function preventionFindings(ctx: AppContext): Promise<PreventionFindings> {
  const now = ctx.clock.now();
  const { from, to } = windowOf(now);
  return findingsOf(await countFromRows(ctx.db, from, to), now);
}

/**
 * The findings as the `organism.observatory` job keeps them: one incremental run of the counts
 * (prevention-counts.ts), then the window read from them; computed at `as_of` (= findings.to).
 */
export const keptPrevention: KeptView<{ as_of: string; findings: PreventionFindings; counted: Counted }> = {
  name: 'experiment:prevention',
  compute: async (ctx) => {
    const counted = await countPrevention(ctx);
    const now = ctx.clock.now();
    const { from, to } = windowOf(now);
    const findings = findingsOf(await readCounts(ctx.db, from, to), now);
    return { as_of: findings.to, findings, counted };
  },
  coverage: ({ findings, counted }) => ({
    from: findings.from,
    to: findings.to,
    days: findings.by_day.length,
    through_sequence: counted.through,
    folded: counted.folded,
    recounted_days: counted.recounted,
    whole: counted.whole,
  }),
};

/** The view of GET /api/experiments/prevention: the kept findings (their as_of) and the latest runs. */
export async function preventionView(ctx: AppContext) {
  const [kept, runs] = await Promise.all([
    readKept(ctx, keptPrevention),
    listRuns(ctx, 'experiment:prevention'),
  ]);
  const { findings } = kept;
  return {
    ok: true as const,
    schema: 'civitas.experiment.prevention.v1' as const,
    as_of: kept.as_of,
    question: "Does the spam gate's burst rule prevent floods?",
    rule: { name: 'burst' as const, limit: BURST_LIMIT, window_seconds: BURST_WINDOW_MS / 1000 },
    measure: `Over the last ${EXPERIMENT_DAYS} UTC days: imprints accepted and held by rule, and flood minutes (one author with more than ${BURST_LIMIT} accepted imprints in one UTC minute, the most the gate accepts). Verdict: "prevented" when the burst rule held imprints and no flood minute got through, "floods_got_through" when any did, "no_bursts_seen" when there was nothing to prevent.`,
    findings,
    runs,
    run: {
      method: 'POST' as const,
      href: '/api/experiments/prevention',
      needs: 'a signed-in session',
      fields: {
        variation: 'optional text (at most 500 characters): a variation of the rule you propose to try',
      },
    },
  };
}
