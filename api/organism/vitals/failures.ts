/**
 * GET /api/failures: 5xx failures counted per lane and UTC day, from the `failures` table (lane
 * and time only are ever stored). Each lane's words come from the failure_projection projector,
 * never from the runtime or a provider.
 */
import type { AppContext } from '../../context.ts';
import { FAILURE_LANES, projectFailure } from '../../../shared/boundaries/projectors/failures.ts';
import { DAY } from './vitals.ts';
import { flushOwn } from './vitals.ts';
import type { RowOf } from '../../db/rows.ts';
import type { Failure } from '../entities.ts';

export const FAILURE_DAYS = 30;

export async function failuresView(ctx: AppContext) {
  await flushOwn(ctx);
  const now = ctx.clock.now();
  const dayEnd = Math.floor(now.getTime() / DAY) * DAY + DAY;
  const from = new Date(dayEnd - FAILURE_DAYS * DAY);
  // Raw: grouped and ordered by the UTC day's text, by position.
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Failure>, 'lane' | 'external'> & {
      date: string;
      count: number;
      last_at: RowOf<typeof Failure>['at'];
    }
  >(
    `select lane, external, to_char(at at time zone 'UTC', 'YYYY-MM-DD') as date, count(*) as count,
            to_char(max(at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at
       from failures where at >= $1 and at < $2
      group by 1, 2, 3 order by 3 desc, 1, 2`,
    [from.toISOString(), new Date(dayEnd).toISOString()],
  );
  // Only the lane and whether a provider failed reach the projector: no message is stored.
  const project = (row: { lane: string; external: boolean }) =>
    projectFailure({ lane: row.lane, external: row.external === true, message: '' });
  const byDay = rows.map((row) => {
    const view = project(row);
    return { date: row.date, lane: view.lane, reason: view.reason, count: row.count };
  });
  const byLane = new Map<
    string,
    { lane: string; reason: string; hint: string; count: number; last_at: string }
  >();
  for (const row of rows) {
    const view = project(row);
    const key = `${view.lane}:${view.reason}`;
    const entry = byLane.get(key) ?? {
      lane: view.lane,
      reason: view.reason,
      hint: view.hint,
      count: 0,
      last_at: row.last_at,
    };
    entry.count += row.count;
    if (row.last_at > entry.last_at) entry.last_at = row.last_at;
    byLane.set(key, entry);
  }
  const today = new Date(dayEnd - DAY).toISOString().slice(0, 10);
  return {
    ok: true as const,
    schema: 'civitas.failures.v1' as const,
    as_of: now.toISOString(),
    days: FAILURE_DAYS,
    lanes: FAILURE_LANES,
    total: byDay.reduce((sum, row) => sum + row.count, 0),
    today: byDay.filter((row) => row.date === today).reduce((sum, row) => sum + row.count, 0),
    by_lane: [...byLane.values()].sort((a, b) => b.count - a.count),
    by_day: byDay,
    rule: "A failure is a 5xx answer other than 501 (not_implemented) and other than a 503 from a provider switched off here (no key, no mail server, no identity provider): that is configuration, not a failure. A provider that failed reads provider_unavailable in its lane; the service's own failures read internal_error. Only the lane, that kind and the time are kept; nobody's words are.",
  };
}
