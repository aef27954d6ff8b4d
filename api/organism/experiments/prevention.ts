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
 * The findings count 30 days of imprints per author-minute, so a request does not compute them:
 * the `organism.observatory` job keeps them (keptPrevention, api/db/kept-views.ts) and the request
 * reads the stored answer, whose `as_of` says when it was computed. A run computes them afresh
 * (the figures of its moment) and keeps what it computed.
 */
import { newId } from '../../ids.ts';
import type { z } from 'zod';
import { HOLD_REASONS } from '../../../shared/boundaries/projectors/spam.ts';
import { BURST_LIMIT, BURST_WINDOW_MS } from '../../../shared/record/gate.ts';
import type { AppContext } from '../../context.ts';
import { recordReceipt } from '../../ledger/receipts.ts';
import { DAY } from '../vitals/vitals.ts';
import type {
  paradoxFindingsSchema,
  preventionFindingsSchema,
} from '../../../shared/organism/contract/experiments.ts';
import { one, type Counts } from '../../db/rows.ts';
import { readKept, type KeptView } from '../../db/kept-views.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../../db/kysely.ts';

export const EXPERIMENT_DAYS = 30;
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

export async function preventionFindings(ctx: AppContext): Promise<PreventionFindings> {
  const now = ctx.clock.now();
  const since = new Date(Math.floor(now.getTime() / DAY) * DAY - (EXPERIMENT_DAYS - 1) * DAY);
  const [days, floods] = await Promise.all([
    // Raw: filtered counts grouped by the UTC day's text, by position.
    ctx.db.query<Counts<'accepted' | 'held_burst' | 'held_other'> & { date: string }>(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date, count(*) filter (where not held) as accepted,
              count(*) filter (where held and held_reason = 'burst') as held_burst, count(*) filter (where held and coalesce(held_reason, '') <> 'burst') as held_other
         from imprints where created_at >= $1 and created_at <= $2 group by 1 order by 1`,
      [since.toISOString(), now.toISOString()],
    ),
    // Raw: flood minutes, a group by over a grouped subquery with having.
    ctx.db.query<Counts<'n'> & { date: string }>(
      `select to_char(minute at time zone 'UTC', 'YYYY-MM-DD') as date, count(*) as n from (
          select author_kind, author_ref, date_trunc('minute', created_at) as minute from imprints
           where not held and created_at >= $1 and created_at <= $2 group by 1, 2, 3 having count(*) > ${BURST_LIMIT}) f group by 1`,
      [since.toISOString(), now.toISOString()],
    ),
  ]);
  const [rules] = await Promise.all([
    ctx.db.kysely
      .selectFrom('imprints')
      .select((eb) => ['held_reason as rule', eb.fn.countAll<number>().as('n')])
      .where('held', '=', constant(true))
      .where('created_at', '>=', since.toISOString())
      .where('created_at', '<=', now.toISOString())
      .groupBy('held_reason')
      .execute(),
  ]);
  const floodBy = new Map(floods.map((f) => [f.date, f.n]));
  const byDay = days.map((d) => ({
    date: d.date,
    accepted: d.accepted,
    held_burst: d.held_burst,
    held_other: d.held_other,
    flood_minutes: floodBy.get(d.date) ?? 0,
  }));
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
      held: rules.filter((r) => (r.rule ?? 'other') === rule).reduce((s, r) => s + r.n, 0),
    })),
    held_burst: held,
    flood_minutes: leaked,
    verdict,
    by_day: byDay,
  };
}

/** The findings as the `organism.observatory` job keeps them: computed at `as_of` (= findings.to). */
export const keptPrevention: KeptView<{ as_of: string; findings: PreventionFindings }> = {
  name: 'experiment:prevention',
  compute: async (ctx) => {
    const findings = await preventionFindings(ctx);
    return { as_of: findings.to, findings };
  },
  coverage: ({ findings }) => ({ from: findings.from, to: findings.to, days: findings.by_day.length }),
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
