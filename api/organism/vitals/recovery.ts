/**
 * GET /api/recovery (+ /recovery page and card): how the service recovered from failures. An
 * incident is a lane's failures within one UTC minute (the `failures` table); it is recovered at
 * the start of the next minute the vitals show requests answered and no 5xx failure
 * (`vitals_minutes`, summed over processes). Lanes are named by the failure_projection projector.
 */
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { recoverySchema } from '../../../shared/organism/contract/vitals.ts';
import { projectFailure } from '../../../shared/boundaries/projectors/failures.ts';
import { DAY, flushOwn } from './vitals.ts';
import { count } from '../../../shared/plural.ts';
import { CARD_FONT, CARD_INK } from '../../../shared/theme.ts';
import type { Counts, RowOf } from '../../db/rows.ts';
import type { Failure } from '../entities.ts';

export const RECOVERY_DAYS = 30;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  // A non-empty list: mid < length, and an even length puts mid at 1 or more.
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

export async function recoveryView(ctx: AppContext): Promise<Recovery> {
  await flushOwn(ctx);
  const now = ctx.clock.now();
  const from = new Date(now.getTime() - RECOVERY_DAYS * DAY);
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Failure>, 'lane' | 'external'> &
      Counts<'failures'> & { minute: string; recovered_at: string | null; seconds: number | null }
  >(
    `with incidents as (
        select lane, external, date_trunc('minute', at) as minute, count(*) as failures, max(at) as last_at
          from failures where at >= $1 and at <= $2 group by 1, 2, 3),
      clean as (
        select minute from vitals_minutes where minute >= $1 group by minute
        having sum(requests) > 0 and sum(server_errors) = 0)
     select i.lane, i.external, i.failures, to_char(i.minute at time zone 'UTC', ${ISO}) as minute,
            to_char(r.recovered at time zone 'UTC', ${ISO}) as recovered_at,
            extract(epoch from (r.recovered - i.minute)) as seconds
       from incidents i
       left join lateral (select min(c.minute) as recovered from clean c where c.minute > i.minute) r on true
      order by i.minute desc, i.lane, i.external`,
    [from.toISOString(), now.toISOString()],
  );
  const incidents = rows.map((row) => {
    // The stored kind, as /api/failures reads it: one incident has one classification everywhere.
    const view = projectFailure({ lane: row.lane, external: row.external, message: '' });
    return {
      lane: view.lane,
      reason: view.reason,
      minute: row.minute,
      failures: row.failures,
      recovered_at: row.recovered_at,
      recovery_seconds: row.recovered_at ? Math.round(Number(row.seconds)) : null,
    };
  });
  const lanes = new Map<
    string,
    {
      lane: string;
      reason: string;
      incidents: number;
      recovered: number;
      unrecovered: number;
      times: number[];
      last_incident_at: string;
    }
  >();
  for (const incident of incidents) {
    const key = `${incident.lane} ${incident.reason}`;
    const entry = lanes.get(key) ?? {
      lane: incident.lane,
      reason: incident.reason,
      incidents: 0,
      recovered: 0,
      unrecovered: 0,
      times: [],
      last_incident_at: incident.minute,
    };
    entry.incidents += 1;
    if (incident.recovery_seconds === null) entry.unrecovered += 1;
    else {
      entry.recovered += 1;
      entry.times.push(incident.recovery_seconds);
    }
    if (incident.minute > entry.last_incident_at) entry.last_incident_at = incident.minute;
    lanes.set(key, entry);
  }
  const byLane = [...lanes.values()].map(({ times, ...rest }) => ({
    ...rest,
    median_recovery_seconds: median(times),
    max_recovery_seconds: times.length ? Math.max(...times) : null,
  }));
  const all = incidents.flatMap((i) => (i.recovery_seconds === null ? [] : [i.recovery_seconds]));
  return {
    ok: true as const,
    schema: 'civitas.recovery.v1' as const,
    as_of: now.toISOString(),
    days: RECOVERY_DAYS,
    incidents: incidents.length,
    recovered: all.length,
    unrecovered: incidents.length - all.length,
    median_recovery_seconds: median(all),
    by_lane: byLane.sort((a, b) => b.incidents - a.incidents),
    recent: incidents.slice(0, 30),
    rule: "An incident is one lane's 5xx failures within a UTC minute; it is recovered at the start of the next minute with requests answered and no 5xx. Minute resolution: recovery takes at least 60 seconds by this measure.",
  };
}

/** The answer of GET /api/recovery, as its contract describes it (the card draws from it too). */
export type Recovery = z.infer<typeof recoverySchema>;
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function recoveryCard(r: Recovery): string {
  const line = (y: number, size: number, text: string) =>
    `<text x="30" y="${y}" font-family="${CARD_FONT}" font-size="${size}" fill="${CARD_INK.ink}">${escapeXml(text)}</text>`;
  const lanes = r.by_lane
    .slice(0, 5)
    .map((lane, i) =>
      line(
        150 + i * 26,
        14,
        `${lane.lane}: ${count(lane.incidents, 'incident', 'incidents')}, ${lane.unrecovered} open, median ${lane.median_recovery_seconds ?? '—'} s`,
      ),
    );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="315" viewBox="0 0 600 315" role="img" aria-label="civitas recovery">
<rect width="600" height="315" fill="#f7f5f0"/>
${line(44, 24, 'civitas — recovery')}
${line(80, 16, r.incidents === 0 ? `No failure in the last ${count(r.days, 'day', 'days')}.` : `${count(r.incidents, 'incident', 'incidents')} in ${count(r.days, 'day', 'days')} · ${r.recovered} recovered · median ${r.median_recovery_seconds ?? '—'} s`)}
${lanes.join('\n')}
<text x="30" y="298" font-family="${CARD_FONT}" font-size="12" fill="${CARD_INK.soft}">From stored failures and vitals, as of ${escapeXml(r.as_of)}</text>
</svg>`;
}
