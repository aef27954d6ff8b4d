/**
 * GET /api/season: the current season (a calendar quarter in UTC — seasonOf, the calibration
 * family's definition) with its figures so far, its themes (the terms of its dreams) and the
 * service's own prophecies for it.
 */
import type { AppContext } from '../../context.ts';
import { seasonOf } from '../../../shared/calibration/scores.ts';
import { DAY } from '../vitals/vitals.ts';
import { ALL_IMPRINTS, countBetween, total } from './tallies.ts';
import type { Row } from '../../db/kysely.ts';
import type { Counts } from '../../db/rows.ts';

const NAMES = [...ALL_IMPRINTS, 'imprints_by_agents', 'agents', 'sovereigns'];

const n = (value: unknown) => Number(value ?? 0);

/** The season so far: its figures and themes (what /api/organism shows), without its prophecies. */
export async function seasonSoFar(ctx: AppContext) {
  const now = ctx.clock.now();
  const { season, start, end } = seasonOf(now);
  // [start, now], from the hour and day tallies the writers keep (tallies.ts): a quarter is at
  // most 92 day rows per name and its edges, never the quarter's rows. Receipts: the season's log
  // days' sizes (a quarter starts on a UTC day), at most 92 rows, in the statement that counts the
  // prophecies resolved.
  const [counted, [resolved], themes] = await Promise.all([
    countBetween(ctx.db, NAMES, start, new Date(now.getTime() + 1)),
    ctx.db.query<Counts<'receipts' | 'resolved' | 'resolved_true'>>(
      `select (select coalesce(sum(size), 0) from log_days where date >= $1::date) as receipts,
              count(*) as resolved, count(*) filter (where outcome) as resolved_true
         from prophecies where resolved_at >= $2 and resolved_at <= $3`,
      [start.toISOString().slice(0, 10), start.toISOString(), now.toISOString()],
    ),
    // Raw: jsonb_to_recordset over each dream's terms, grouped by term (a set-returning function).
    ctx.db.query<Counts<'dreams' | 'count'> & { term: string }>(
      `select t.term, count(*) as dreams, sum(t.count) as count
       from dreams d, jsonb_to_recordset(d.terms) as t(term text, count integer)
      where d.date >= $1::date and d.date < $2::date
      group by t.term order by count(*) desc, sum(t.count) desc, t.term limit 12`,
      [start.toISOString().slice(0, 10), end.toISOString().slice(0, 10)],
    ),
  ]);
  const imprints = total(counted, ALL_IMPRINTS);
  const agentImprints = counted.get('imprints_by_agents') ?? 0;
  const figures = {
    imprints,
    agent_imprints: agentImprints,
    human_imprints: imprints - agentImprints,
    new_agents: counted.get('agents'),
    new_humans: counted.get('sovereigns'),
    receipts: resolved?.receipts,
    resolved: resolved?.resolved,
    resolved_true: resolved?.resolved_true,
  };
  const elapsedDays = Math.floor((now.getTime() - start.getTime()) / DAY);
  const totalDays = Math.round((end.getTime() - start.getTime()) / DAY);
  return {
    ok: true as const,
    schema: 'civitas.season.v1' as const,
    as_of: now.toISOString(),
    season,
    definition:
      "A season is a calendar quarter in UTC (the same definition calibration uses for the service's own prophecies).",
    starts: start.toISOString(),
    ends: end.toISOString(),
    day: elapsedDays + 1,
    days: totalDays,
    figures: {
      imprints: n(figures.imprints),
      imprints_by_kind_of_author: { agents: n(figures.agent_imprints), humans: n(figures.human_imprints) },
      new_agents: n(figures.new_agents),
      new_humans: n(figures.new_humans),
      receipts: n(figures.receipts),
      prophecies_resolved: n(figures.resolved),
      prophecies_resolved_true: n(figures.resolved_true),
    },
    themes: themes.map((row) => ({ term: row.term, dreams: n(row.dreams), count: n(row.count) })),
  };
}

export async function seasonView(ctx: AppContext) {
  const soFar = await seasonSoFar(ctx);
  const prophecies = await ctx.db.query<
    Pick<
      Row<'prophecies'>,
      | 'id'
      | 'metric'
      | 'comparator'
      | 'threshold'
      | 'probability'
      | 'basis'
      | 'made_at'
      | 'due_at'
      | 'outcome'
    > & { resolved: boolean }
  >(
    `select id, metric, comparator, threshold, probability, basis,
            to_char(made_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as made_at,
            to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as due_at,
            resolved_at is not null as resolved, outcome
       from prophecies where forecaster_kind = 'service' and season = $1 order by metric`,
    [soFar.season],
  );
  return {
    ...soFar,
    prophecies: prophecies.map((row) => ({
      id: String(row.id),
      metric: String(row.metric),
      comparator: String(row.comparator),
      threshold: n(row.threshold),
      probability: n(row.probability),
      made_at: String(row.made_at),
      due_at: String(row.due_at),
      resolved: Boolean(row.resolved),
      outcome: row.outcome === null || row.outcome === undefined ? null : Boolean(row.outcome),
      basis: row.basis === null ? null : String(row.basis),
    })),
  };
}
