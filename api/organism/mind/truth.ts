/**
 * The claims the service makes about itself (TRUTH_CLAIMS), checked by each run of the
 * verification job (api/organism/checks/knowledge.ts) from what it found: five are its
 * self-trials, two its walks' own findings (sealed days complete, censuses never shrink). Each
 * round is kept in `truth_checks` with its tallies (`truth_tallies`, `truth_days`), which
 * /api/trust and the mind read; /api/truth shows the round the latest run kept (truth-views.ts).
 */
import type { Sql } from '../../db/database.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import type { Trial, TrialFacts, TrialsView } from '../checks/trials.ts';
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

export interface TruthCheck {
  claim: ClaimName;
  statement: string;
  held: boolean;
  evidence: string;
  checked_at: string;
}

/** The walk-backed claims: held while the walks keep no problem against them. */
function walked(facts: TrialFacts, claim: 'sealed_days_complete' | 'censuses_never_shrink') {
  const problems = facts.problems.get(claim) ?? { count: 0, first: [] };
  const walk = facts.verification.walks.find(
    (w) => w.walk === (claim === 'sealed_days_complete' ? 'ledger' : 'censuses'),
  )!;
  const listed = `${count(problems.count, 'problem', 'problems')}: ${problems.first.join('; ')}${problems.count > problems.first.length ? '; …' : ''}.`;
  if (problems.count > 0)
    return {
      held: false,
      evidence: claim === 'censuses_never_shrink' ? `${listed} (An erasure can do this for humans.)` : listed,
    };
  return {
    held: true,
    evidence:
      claim === 'sealed_days_complete'
        ? `${count(walk.days ?? 0, 'sealed day', 'sealed days')} verified, each with one anchor matching its receipts.`
        : `${count(walk.verified, 'census snapshot', 'census snapshots')}, none smaller than the one before.`,
  };
}

/** The claims of one verification run: five are its trials, two its walks' own findings. */
export function truthChecks(trials: TrialsView, facts: TrialFacts, at: string): TruthCheck[] {
  const byTrial = new Map<string, Trial>(trials.trials.map((trial) => [trial.name, trial]));
  return TRUTH_CLAIMS.map((def) => {
    const trial = def.trial ? byTrial.get(def.trial) : undefined;
    const result = def.trial
      ? trial
        ? { held: trial.passed, evidence: trial.detail }
        : { held: false, evidence: 'The check did not run.' }
      : walked(facts, def.claim as 'sealed_days_complete' | 'censuses_never_shrink');
    return { claim: def.claim, statement: def.statement, ...result, checked_at: at };
  });
}

/**
 * Keeps one round of checks in the history and its tallies in the same statement, so /api/trust
 * reads a handful of rows and always agrees with the round /api/truth shows.
 */
export async function recordTruthRound(sql: Sql, checks: TruthCheck[], at: string): Promise<void> {
  const rows = JSON.stringify(checks.map(({ claim, held, evidence }) => ({ claim, held, evidence })));
  await sql.query(
    `with c as (select * from jsonb_to_recordset($1::jsonb) as c(claim text, held boolean, evidence text)),
     history as (insert into truth_checks (claim, held, evidence, checked_at) select claim, held, evidence, $2::timestamptz from c),
     days as (insert into truth_days (date, checks, held)
              select ($2::timestamptz at time zone 'UTC')::date, count(*), count(*) filter (where held) from c
              on conflict (date) do update set checks = truth_days.checks + excluded.checks, held = truth_days.held + excluded.held)
     insert into truth_tallies (claim, checks, held, first_checked_at, last_checked_at, last_not_held_at, last_held, last_evidence)
     select claim, 1, case when held then 1 else 0 end, $2::timestamptz, $2::timestamptz,
            case when held then null else $2::timestamptz end, held, evidence from c
     on conflict (claim) do update set checks = truth_tallies.checks + 1, held = truth_tallies.held + excluded.held,
       last_checked_at = excluded.last_checked_at,
       last_not_held_at = coalesce(excluded.last_not_held_at, truth_tallies.last_not_held_at),
       last_held = excluded.last_held, last_evidence = excluded.last_evidence`,
    [rows, at],
  );
}
