/**
 * The recovery-paradox expedition (GET /api/expeditions/recovery-paradox, page
 * /expeditions/recovery-paradox, alias /expeditions): does recovery get faster where failures are
 * more frequent? Points are (lane, UTC day) pairs of the last 30 days with at least one recovered
 * incident (the /api/recovery definition): x = incidents that day in that lane, y = their median
 * recovery seconds. The Pearson correlation is published from 5 points on; below that the finding
 * is "insufficient_data". Lanes are named through the failure_projection projector. A run (POST,
 * signed in) stores the figures of that moment with a receipt. private, no-store like /recovery.
 *
 * The findings read 30 days of failures and vitals minutes, so a request does not compute them:
 * the `organism.observatory` job keeps them (keptParadox, api/db/kept-views.ts, as the prevention
 * experiment's are) and the request reads the stored answer, whose `as_of` says when it was
 * computed. A run computes them afresh (the figures of its moment) and keeps what it computed.
 */
import { projectFailure } from '../../../shared/boundaries/projectors/failures.ts';
import type { AppContext } from '../../context.ts';
import type { PARADOX_FINDINGS } from '../../../shared/organism/contract/experiments.ts';
import { listRuns } from './prevention.ts';
import { readKept, type KeptView } from '../../db/kept-views.ts';
import { RECOVERY_DAYS } from '../vitals/recovery.ts';
import { DAY, flushOwn } from '../vitals/vitals.ts';
import type { RowOf } from '../../db/rows.ts';
import type { Failure } from '../entities.ts';

export const MIN_POINTS = 5;
type ParadoxFinding = (typeof PARADOX_FINDINGS)[number];

export function pearson(points: { x: number; y: number }[]): number | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.round((sxy / Math.sqrt(sxx * syy)) * 1000) / 1000;
}

/** The median of a non-empty list (the caller keeps only groups with a time). */
function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  const upper = s[m];
  if (upper === undefined) throw new RangeError('the median of no values');
  // An even, non-zero length puts m at 1 or more, so s[m - 1] is there.
  return s.length % 2 ? upper : Math.round((s[m - 1]! + upper) / 2);
}

export async function paradoxFindings(ctx: AppContext) {
  await flushOwn(ctx);
  const now = ctx.clock.now();
  const from = new Date(now.getTime() - RECOVERY_DAYS * DAY);
  // Raw: two CTEs and a lateral join (each incident's first clean minute after it).
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Failure>, 'lane'> & { day: string; seconds: number | null }
  >(
    `with incidents as (
        select lane, date_trunc('minute', at) as minute from failures where at >= $1 and at <= $2 group by 1, 2),
      clean as (
        select minute from vitals_minutes where minute >= $1 group by minute having sum(requests) > 0 and sum(server_errors) = 0)
     select i.lane, to_char(i.minute at time zone 'UTC', 'YYYY-MM-DD') as day, extract(epoch from (r.recovered - i.minute)) as seconds
       from incidents i left join lateral (select min(c.minute) as recovered from clean c where c.minute > i.minute) r on true`,
    [from.toISOString(), now.toISOString()],
  );
  const groups = new Map<string, { lane: string; day: string; incidents: number; times: number[] }>();
  for (const row of rows) {
    const lane = projectFailure({ lane: String(row.lane), external: false, message: '' }).lane;
    const key = `${lane} ${row.day}`;
    const g = groups.get(key) ?? { lane, day: row.day, incidents: 0, times: [] };
    g.incidents += 1;
    if (row.seconds !== null) g.times.push(Math.round(row.seconds));
    groups.set(key, g);
  }
  const points = [...groups.values()]
    .filter((g) => g.times.length > 0)
    .map((g) => ({
      lane: g.lane,
      day: g.day,
      incidents: g.incidents,
      median_recovery_seconds: median(g.times),
    }))
    .sort((a, b) => a.day.localeCompare(b.day) || a.lane.localeCompare(b.lane));
  const enough = points.length >= MIN_POINTS;
  const r = enough ? pearson(points.map((p) => ({ x: p.incidents, y: p.median_recovery_seconds }))) : null;
  const finding: ParadoxFinding = !enough
    ? 'insufficient_data'
    : r === null
      ? 'no_variation'
      : r <= -0.3
        ? 'paradox_supported'
        : r >= 0.3
          ? 'paradox_contradicted'
          : 'no_clear_relation';
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    incidents: rows.length,
    points_needed: MIN_POINTS,
    points,
    correlation: r,
    finding,
  };
}

type Findings = Awaited<ReturnType<typeof paradoxFindings>>;

/** The findings as the `organism.observatory` job keeps them: computed at `as_of` (= findings.to). */
export const keptParadox: KeptView<{ as_of: string; findings: Findings }> = {
  name: 'expedition:recovery-paradox',
  compute: async (ctx) => {
    const findings = await paradoxFindings(ctx);
    return { as_of: findings.to, findings };
  },
  coverage: ({ findings }) => ({ from: findings.from, to: findings.to, incidents: findings.incidents }),
};

/** The view of GET /api/expeditions/recovery-paradox: the kept findings (their as_of) and the latest runs. */
export async function paradoxView(ctx: AppContext) {
  const [kept, runs] = await Promise.all([
    readKept(ctx, keptParadox),
    listRuns(ctx, 'expedition:recovery-paradox'),
  ]);
  const { findings } = kept;
  return {
    ok: true as const,
    schema: 'civitas.expedition.recovery-paradox.v1' as const,
    as_of: kept.as_of,
    question:
      'Does faster recovery follow more failures? (Where a lane fails more often in a day, does it recover faster?)',
    method: `Points are (lane, UTC day) pairs of the last ${RECOVERY_DAYS} days with a recovered incident (as /api/recovery defines them): incidents that day against their median recovery seconds. Pearson correlation from ${MIN_POINTS} points; r ≤ −0.3 supports the paradox, r ≥ 0.3 contradicts it, anything between is no clear relation. Correlation, not cause.`,
    findings,
    runs,
    run: { method: 'POST' as const, href: '/expeditions/recovery-paradox', needs: 'a signed-in session' },
  };
}
