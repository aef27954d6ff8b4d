/**
 * GET /branchworld/{id} (hybrid): a what-if projection from a prophecy (`pro_<ULID>`) or a
 * governance proposal (`prop_<ULID>`), computed from stored data on each request.
 * - Prophecy: the metric's value at the end of each of the last 30 UTC days, a least-squares line
 *   through them, and where that line would stand at the due time against the threshold.
 * - Proposal: its stored state and what each remaining step would change (cosigns still needed,
 *   what ratification would amend). The proposer is not named here.
 * Malformed id → 400, well-formed but unknown → 404 (the page points to /branchworld/missing).
 */
import { METRIC_MEANING } from '../../../shared/calibration/scores.ts';
import { COSIGNS_REQUIRED } from '../../../shared/governance/rules.ts';
import { Refusal } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { metricAsOf } from '../../calibration/job.ts';
import { PROPHECY_ID, prophecyById } from '../../calibration/prophecies.ts';
import { DAY } from '../vitals/vitals.ts';
import { count } from '../../../shared/plural.ts';

export const PROPOSAL_ID = /^prop_[0-9A-HJKMNP-TV-Z]{26}$/;
export const TRAJECTORY_DAYS = 30;

/** Least squares y = a + b·x; null slope with fewer than two points. */
export function fitLine(points: { x: number; y: number }[]): { intercept: number; slope: number } | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  if (sxx === 0) return null;
  const slope = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
  return { intercept: my - slope * mx, slope };
}

async function prophecyBranch(ctx: AppContext, id: string) {
  const prophecy = await prophecyById(ctx.db, id);
  if (!prophecy) return null;
  const now = ctx.clock.now();
  const today = Math.floor(now.getTime() / DAY) * DAY;
  // The last TRAJECTORY_DAYS UTC days ending with today: each past day at its end, today as it
  // stands now (so what happened today moves the line).
  const trajectory: { date: string; value: number }[] = [];
  for (let d = TRAJECTORY_DAYS - 1; d >= 1; d--) {
    const at = new Date(today - (d - 1) * DAY);
    trajectory.push({
      date: new Date(at.getTime() - DAY).toISOString().slice(0, 10),
      value: await metricAsOf(ctx.db, prophecy.metric, at),
    });
  }
  const current = await metricAsOf(ctx.db, prophecy.metric, new Date(now.getTime() + 1));
  trajectory.push({ date: new Date(today).toISOString().slice(0, 10), value: current });
  const points = trajectory.map((p, i) => ({ x: i, y: p.value }));
  const line = fitLine(points);
  const dueAt = Date.parse(prophecy.due_at);
  const daysToDue = (dueAt - now.getTime()) / DAY;
  const perDay = line ? Math.round(line.slope * 1000) / 1000 : null;
  const projected = line ? Math.round(current + line.slope * Math.max(0, daysToDue)) : null;
  const holds = (v: number) =>
    prophecy.comparator === 'gte' ? v >= prophecy.threshold : v < prophecy.threshold;
  const gap = prophecy.threshold - current;
  const crossing =
    line && line.slope !== 0 && Math.sign(gap) === Math.sign(line.slope) ? Math.ceil(gap / line.slope) : null;
  return {
    ok: true as const,
    schema: 'civitas.branchworld.v1' as const,
    as_of: now.toISOString(),
    id,
    from: 'prophecy' as const,
    prophecy: {
      id: prophecy.id,
      statement: prophecy.statement,
      metric: prophecy.metric,
      metric_meaning: METRIC_MEANING[prophecy.metric],
      comparator: prophecy.comparator,
      threshold: prophecy.threshold,
      probability: prophecy.probability,
      due_at: prophecy.due_at,
      status: prophecy.status,
      observed: prophecy.observed,
      outcome: prophecy.outcome,
    },
    current,
    trajectory,
    branch: {
      per_day: perDay,
      projected_at_due: prophecy.status === 'resolved' ? null : projected,
      would_hold: prophecy.status === 'resolved' || projected === null ? null : holds(projected),
      holds_now: holds(current),
      days_to_threshold: crossing !== null && crossing >= 0 ? crossing : null,
    },
    method: `The metric at the end of each of the last ${TRAJECTORY_DAYS - 1} UTC days and its value now for today, a least-squares line through them, extended from today's value to the due time. A what-if, not a forecast the service stands behind: the prophecy's own probability is what calibration grades.`,
  };
}

async function proposalBranch(ctx: AppContext, id: string) {
  const [row] = await ctx.db.kysely
    .selectFrom('governance_proposals as p')
    .select((eb) => [
      'p.id',
      'p.title',
      'p.amends',
      'p.state',
      'p.created_at',
      'p.article_id',
      eb
        .selectFrom('governance_cosigns as c')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('c.proposal_id', '=', 'p.id')
        .as('cosigns'),
    ])
    .where('p.id', '=', id)
    .execute();
  if (!row) return null;
  const cosigns = row.cosigns ?? 0; // a count: always a number
  const needed = Math.max(0, COSIGNS_REQUIRED - cosigns);
  const branches =
    row.state === 'ratified'
      ? [
          {
            step: 'ratified',
            taken: true,
            effect: `Already ratified as ${row.article_id ?? 'an article'}${row.amends ? `, amending ${row.amends}` : ''}.`,
          },
        ]
      : [
          {
            step: 'cosign',
            taken: row.state !== 'proposed',
            effect:
              row.state === 'proposed'
                ? `${count(needed, 'more cosign', 'more cosigns')} from sovereigns other than the proposer would make it cosigned.`
                : 'Cosigned: no more cosigns are taken.',
          },
          {
            step: 'ratify',
            taken: false,
            effect: `Ratification would add a new article to the constitution${row.amends ? ` amending ${row.amends}` : ''}; it needs the cosigned state and a ratifier with a human-uniqueness receipt.`,
          },
        ];
  return {
    ok: true as const,
    schema: 'civitas.branchworld.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    id,
    from: 'proposal' as const,
    proposal: {
      id: row.id,
      title: row.title,
      amends: row.amends,
      state: row.state,
      created_at: new Date(row.created_at).toISOString(),
      cosigns,
      cosigns_required: COSIGNS_REQUIRED,
    },
    branches,
    method:
      "The proposal's stored state and the governance rules applied to it: what each remaining step would change. Nothing here is recorded.",
  };
}

export async function branchworldView(ctx: AppContext, raw: unknown) {
  const id = typeof raw === 'string' ? raw : '';
  if (!PROPHECY_ID.test(id) && !PROPOSAL_ID.test(id)) {
    throw new Refusal('invalid_request', {
      issues: [
        {
          path: 'id',
          message: 'a branchworld id is a prophecy id (pro_<ULID>) or a proposal id (prop_<ULID>)',
        },
      ],
    });
  }
  const view = PROPHECY_ID.test(id) ? await prophecyBranch(ctx, id) : await proposalBranch(ctx, id);
  if (!view)
    throw new Refusal(
      'not_found',
      { id },
      'No prophecy or proposal is stored under that id; see /branchworld/missing.',
    );
  return view;
}
