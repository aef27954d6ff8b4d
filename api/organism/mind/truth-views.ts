/**
 * GET /api/truth and GET /api/trust: the claims as the latest verification run checked them, and
 * the history of those checks. Both read what the job kept (api/organism/checks/knowledge.ts and
 * the tallies of truth.ts); neither checks anything on a request.
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { keptKnowledge } from '../checks/knowledge.ts';
import { DAY } from '../vitals/vitals.ts';
import { TRUTH_CLAIMS } from './truth.ts';
import type { RowOf } from '../../db/rows.ts';
import type { TruthDay, TruthTally } from '../entities.ts';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** GET /api/truth: the claims as the latest verification run checked them (the host: a first run's census). */
export async function truthView(ctx: AppContext, host: CensusHost) {
  const kept = await keptKnowledge(ctx, host);
  const checks = kept.truth;
  const held = checks.filter((c) => c.held).length;
  return {
    ok: true as const,
    schema: 'civitas.truth.v1' as const,
    checked_at: kept.as_of,
    as_of: kept.as_of,
    claims: checks.length,
    held,
    not_held: checks.length - held,
    checks,
    verification: kept.trials.verification,
    history: '/api/trust',
  };
}

/**
 * GET /api/trust: the history of truth checks — how often each claim held, overall and per day
 * (30 days) — read from the tallies each round keeps (recordTruthRound): seven rows and at most
 * thirty, whatever the history's length. The last result of each claim is the round /api/truth
 * shows, so the two never disagree.
 */
export async function trustView(ctx: AppContext) {
  const now = ctx.clock.now();
  const perClaim = await ctx.db.query<
    Pick<
      RowOf<typeof TruthTally>,
      'claim' | 'checks' | 'held' | 'last_held' | 'first_checked_at' | 'last_checked_at' | 'last_not_held_at'
    >
  >(
    `select claim, checks, held, last_held,
            to_char(first_checked_at at time zone 'UTC', ${ISO}) as first_checked_at,
            to_char(last_checked_at at time zone 'UTC', ${ISO}) as last_checked_at,
            to_char(last_not_held_at at time zone 'UTC', ${ISO}) as last_not_held_at
       from truth_tallies`,
  );
  const from = new Date(Math.floor(now.getTime() / DAY) * DAY - 29 * DAY);
  const perDay = await ctx.db.query<Pick<RowOf<typeof TruthDay>, 'date' | 'checks' | 'held'>>(
    `select to_char(date, 'YYYY-MM-DD') as date, checks, held from truth_days where date >= $1::date order by date desc`,
    [from.toISOString().slice(0, 10)],
  );
  const rows = new Map(perClaim.map((row) => [row.claim, row]));
  const claims = TRUTH_CLAIMS.map((def) => {
    const row = rows.get(def.claim);
    const checks = row?.checks ?? 0;
    const held = row?.held ?? 0;
    return {
      claim: def.claim,
      statement: def.statement,
      checks,
      held,
      fraction_held: checks === 0 ? null : Math.round((held / checks) * 10_000) / 10_000,
      last_held: row ? row.last_held : null,
      first_checked_at: row?.first_checked_at ?? null,
      last_checked_at: row?.last_checked_at ?? null,
      last_not_held_at: row?.last_not_held_at ?? null,
    };
  });
  const total = claims.reduce((s, c) => s + c.checks, 0);
  const totalHeld = claims.reduce((s, c) => s + c.held, 0);
  return {
    ok: true as const,
    schema: 'civitas.trust.v1' as const,
    as_of: now.toISOString(),
    checks: total,
    held: totalHeld,
    fraction_held: total === 0 ? null : Math.round((totalHeld / total) * 10_000) / 10_000,
    proved_now: claims.filter((c) => c.last_held === true).map((c) => c.claim),
    not_proved: claims.filter((c) => c.last_held !== true).map((c) => c.claim),
    claims,
    by_day: perDay.map((row) => ({
      date: row.date,
      checks: row.checks,
      held: row.held,
    })),
    rule: 'Each row of the history is one truth check kept by a run of the verification job (organism.vigilance); /api/truth shows the latest round. A claim never checked is not proved.',
  };
}
