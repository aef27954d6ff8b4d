/**
 * GET /api/truth: claims the service makes about itself, each checked against stored data now,
 * with its evidence. Every check is also kept in `truth_checks` (at most once a minute per claim,
 * so a burst of readers does not flood the history); GET /api/trust reads that history.
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import { runSelfTrials, type Trial, type TrialsView } from '../checks/trials.ts';
import { DAY } from '../vitals/vitals.ts';
import { count } from '../../../shared/plural.ts';

export const TRUTH_CLAIMS = [
  {
    claim: 'window_bounded',
    statement: `Exactly min(lifetime, ${RECORD_WINDOW}) imprint bodies are retained, all among the newest ${RECORD_WINDOW}.`,
    trial: 'record_window',
  },
  {
    claim: 'sequence_gap_free',
    statement: 'Imprints are numbered 1..lifetime without a gap, and the counter agrees.',
    trial: 'gap_free_sequence',
  },
  {
    claim: 'every_imprint_has_receipt',
    statement: 'Every imprint has its record.imprint receipt.',
    trial: 'receipts',
  },
  {
    claim: 'anchor_chain_verifies',
    statement: 'The daily anchors chain from genesis and every receipt leaf recomputes.',
    trial: 'anchor_chain',
  },
  {
    claim: 'all_boundaries_bound',
    statement:
      'All 23 privacy boundaries are bound on their live probes and the inventory is fully accounted.',
    trial: 'boundaries',
  },
  {
    claim: 'sealed_days_complete',
    statement: "Every sealed log day has one anchor whose tree size equals the day's receipts.",
    trial: null,
  },
  {
    claim: 'censuses_never_shrink',
    statement: 'Census snapshots never show fewer imprints, humans or agents than the day before.',
    trial: null,
  },
] as const;

export type ClaimName = (typeof TRUTH_CLAIMS)[number]['claim'];
const THROTTLE_MS = 60_000;

async function sealedDaysComplete(ctx: AppContext): Promise<{ held: boolean; evidence: string }> {
  const [row] = await ctx.db.query<Record<string, string | number>>(
    `select count(*) as sealed,
            count(*) filter (where a.date is null) as without_anchor,
            count(*) filter (where a.date is not null and (a.tree_size <> d.size or a.tree_size <> (select count(*) from receipts r where r.log_date = d.date))) as mismatched
       from log_days d left join anchors a on a.date = d.date where d.sealed_at is not null`,
  );
  const sealed = Number(row.sealed);
  const without = Number(row.without_anchor);
  const mismatched = Number(row.mismatched);
  const held = without === 0 && mismatched === 0;
  return {
    held,
    evidence: held
      ? `${count(sealed, 'sealed day', 'sealed days')}, each with one anchor matching its receipts.`
      : `${count(sealed, 'sealed day', 'sealed days')}: ${without} without an anchor, ${mismatched} whose anchor size differs from its receipts.`,
  };
}

async function censusesNeverShrink(ctx: AppContext): Promise<{ held: boolean; evidence: string }> {
  const [row] = await ctx.db.query<Record<string, string | number>>(
    `select count(*) as snapshots,
            count(*) filter (where imprints_lifetime < prev_imprints or humans < prev_humans or agents < prev_agents) as shrinking
       from (select imprints_lifetime, humans, agents,
                    lag(imprints_lifetime) over (order by date) as prev_imprints,
                    lag(humans) over (order by date) as prev_humans,
                    lag(agents) over (order by date) as prev_agents
               from census_snapshots) s`,
  );
  const shrinking = Number(row.shrinking);
  return {
    held: shrinking === 0,
    evidence:
      shrinking === 0
        ? `${count(Number(row.snapshots), 'census snapshot', 'census snapshots')}, none smaller than the one before.`
        : `${count(shrinking, 'census snapshot shows', 'census snapshots show')} fewer than the day before (an erasure can do this for humans).`,
  };
}

export interface TruthCheck {
  claim: ClaimName;
  statement: string;
  held: boolean;
  evidence: string;
  checked_at: string;
}

/**
 * Checks every claim now and keeps the result (throttled per claim). The trial-backed claims read
 * `ran`, or a fresh run of the self-trials, whose census needs the host (runSelfTrials).
 */
export async function checkTruths(
  ctx: AppContext,
  host: CensusHost,
  ran?: TrialsView,
): Promise<TruthCheck[]> {
  const trials = ran ?? (await runSelfTrials(ctx, host));
  const byTrial = new Map<string, Trial>(trials.trials.map((trial) => [trial.name, trial]));
  const now = ctx.clock.now();
  const checks: TruthCheck[] = [];
  for (const def of TRUTH_CLAIMS) {
    let result: { held: boolean; evidence: string };
    if (def.trial) {
      const trial = byTrial.get(def.trial);
      result = trial
        ? { held: trial.passed, evidence: trial.detail }
        : { held: false, evidence: 'The check did not run.' };
    } else {
      try {
        result =
          def.claim === 'sealed_days_complete'
            ? await sealedDaysComplete(ctx)
            : await censusesNeverShrink(ctx);
      } catch {
        result = {
          held: false,
          evidence: 'The check could not run to the end (an internal error); it counts as not held.',
        };
      }
    }
    checks.push({ claim: def.claim, statement: def.statement, ...result, checked_at: now.toISOString() });
  }
  await ctx.db.query(
    `insert into truth_checks (claim, held, evidence, checked_at)
     select c.claim, c.held, c.evidence, $2::timestamptz
       from jsonb_to_recordset($1::jsonb) as c(claim text, held boolean, evidence text)
      where not exists (select 1 from truth_checks t where t.claim = c.claim and t.checked_at > $2::timestamptz - interval '${THROTTLE_MS / 1000} seconds' and t.checked_at <= $2::timestamptz)`,
    [
      JSON.stringify(checks.map(({ claim, held, evidence }) => ({ claim, held, evidence }))),
      now.toISOString(),
    ],
  );
  return checks;
}

export async function truthProjection(ctx: AppContext, host: CensusHost) {
  const checks = await checkTruths(ctx, host);
  const held = checks.filter((c) => c.held).length;
  return {
    ok: true as const,
    schema: 'civitas.truth.v1' as const,
    checked_at: ctx.clock.now().toISOString(),
    claims: checks.length,
    held,
    not_held: checks.length - held,
    checks,
    history: '/api/trust',
  };
}

/** GET /api/trust: the history of truth checks — how often each claim held, overall and per day (30 days). */
export async function trustProjection(ctx: AppContext) {
  const now = ctx.clock.now();
  const perClaim = await ctx.db.query<Record<string, unknown>>(
    `select claim, count(*) as checks, count(*) filter (where held) as held,
            to_char(min(checked_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_checked_at,
            to_char(max(checked_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_checked_at,
            to_char(max(checked_at) filter (where not held) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_not_held_at,
            (array_agg(held order by checked_at desc, id desc))[1] as last_held
       from truth_checks group by claim`,
  );
  const from = new Date(Math.floor(now.getTime() / DAY) * DAY - 29 * DAY);
  const perDay = await ctx.db.query<Record<string, unknown>>(
    `select to_char(checked_at at time zone 'UTC', 'YYYY-MM-DD') as date, count(*) as checks, count(*) filter (where held) as held
       from truth_checks where checked_at >= $1 group by 1 order by 1 desc`,
    [from.toISOString()],
  );
  const rows = new Map(perClaim.map((row) => [String(row.claim), row]));
  const claims = TRUTH_CLAIMS.map((def) => {
    const row = rows.get(def.claim);
    const checks = Number(row?.checks ?? 0);
    const held = Number(row?.held ?? 0);
    return {
      claim: def.claim,
      statement: def.statement,
      checks,
      held,
      fraction_held: checks === 0 ? null : Math.round((held / checks) * 10_000) / 10_000,
      last_held: row ? Boolean(row.last_held) : null,
      first_checked_at: (row?.first_checked_at as string | undefined) ?? null,
      last_checked_at: (row?.last_checked_at as string | undefined) ?? null,
      last_not_held_at: (row?.last_not_held_at as string | null | undefined) ?? null,
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
      date: String(row.date),
      checks: Number(row.checks),
      held: Number(row.held),
    })),
    rule: 'Each row of the history is one truth check kept when /api/truth was read (at most once a minute per claim) or when the vigilance job ran. A claim never checked is not proved.',
  };
}
