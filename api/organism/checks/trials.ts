/**
 * Self-trials: the service's invariants, kept (docs/organism.md "Self-knowledge kept"). The
 * verification job (knowledge.ts) walks the Record and the log from their last verified point
 * (walks/), reads the window whole through its indexes and runs the live census; this module
 * turns what it found into the five trials — the Record window, the gap-free sequence, the anchor
 * chain, the boundaries (the live census) and the imprints' receipts. Requests read the stored
 * answer (knowledge.ts keptSelfTrials); nothing here runs on a request.
 */
import type { z } from 'zod';
import type { Sql } from '../../db/database.ts';
import type { Counts } from '../../db/rows.ts';
import { count } from '../../../shared/plural.ts';
import type { selfTrialsSchema, trialSchema } from '../../../shared/organism/contract/checks.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import type { CensusBody } from '../../../shared/boundaries/census.ts';

/** A trial's result and the whole run: the contract's types (shared/organism/contract/checks.ts). */
export type Trial = z.infer<typeof trialSchema>;
export type TrialsView = z.infer<typeof selfTrialsSchema>;
export type Verification = TrialsView['verification'];
type Result = Omit<Trial, 'checked_at'>;

const n = (value: unknown) => Number(value ?? 0);

export interface WindowFigures {
  lifetime: number;
  retained: number;
  erased: number;
  too_old: number;
}

/**
 * The window whole, read through indexes only: retained bodies through the partial index of
 * retained imprints (at most the window, plus any body that should not be there), erased bodies
 * among the newest 500 numbers by key. Bounded by the window, not by the Record.
 */
export async function windowFigures(sql: Sql): Promise<WindowFigures> {
  const [row] = await sql.query<Counts<'lifetime' | 'retained' | 'erased' | 'too_old'>>(
    `with c as (select value as lifetime from record_counter where id = 1)
     select c.lifetime,
            (select count(*) from imprints where body is not null) as retained,
            (select count(*) from imprints where sequence > c.lifetime - ${RECORD_WINDOW} and body is null and public_author = 'redacted') as erased,
            (select count(*) from imprints where body is not null and sequence <= c.lifetime - ${RECORD_WINDOW}) as too_old
       from c`,
  );
  return {
    lifetime: n(row?.lifetime),
    retained: n(row?.retained),
    erased: n(row?.erased),
    too_old: n(row?.too_old),
  };
}

/**
 * Erasure clears a person's bodies wherever they sit (their imprints read `public_author =
 * 'redacted'`), so a body erased inside the window counts as kept-then-erased, not as lost: the
 * window holds when retained + erased-in-window = min(lifetime, 500) and nothing older is kept.
 */
export function recordWindowTrial(w: WindowFigures): Result {
  const expected = Math.min(w.lifetime, RECORD_WINDOW);
  const passed = w.retained + w.erased === expected && w.too_old === 0;
  const erasedNote =
    w.erased > 0 ? ` (plus ${count(w.erased, 'body', 'bodies')} erased at their author's request)` : '';
  return {
    name: 'record_window',
    passed,
    detail: passed
      ? `${count(w.retained, 'body', 'bodies')} retained${erasedNote} = min(lifetime ${w.lifetime}, ${RECORD_WINDOW}); none older than the newest ${RECORD_WINDOW}.`
      : `${count(w.retained, 'body', 'bodies')} retained${erasedNote}, expected min(lifetime ${w.lifetime}, ${RECORD_WINDOW}) = ${expected}; ${count(w.too_old, 'retained body is', 'retained bodies are')} older than the newest ${RECORD_WINDOW}.`,
  };
}

/** What the walks stored against one trial: how many problems, and the first few in order. */
export interface ProblemSummary {
  count: number;
  first: string[];
}

export interface TrialFacts {
  window: WindowFigures;
  bounds: { counter: number; min: number | null; max: number | null };
  problems: Map<string, ProblemSummary>;
  verification: Verification;
}

const problemsOf = (facts: TrialFacts, trial: string) => facts.problems.get(trial) ?? { count: 0, first: [] };
const listed = (p: ProblemSummary) =>
  `${count(p.count, 'problem', 'problems')}: ${p.first.join('; ')}${p.count > p.first.length ? '; …' : ''}`;

/** "so far" when the frontier has not reached the head yet (a backlog caught up over several runs). */
function reach(v: Verification['walks'][number]): string {
  return v.complete
    ? ''
    : ` (verification has reached ${v.verified_through}; newer items follow in the next runs)`;
}

function gapFree(facts: TrialFacts): Result {
  const { counter, min, max } = facts.bounds;
  const p = problemsOf(facts, 'gap_free_sequence');
  const walk = facts.verification.walks.find((w) => w.walk === 'imprints')!;
  const boundsOk = max === null ? counter === 0 : min === 1 && max === counter;
  const passed = boundsOk && p.count === 0;
  if (passed)
    return {
      name: 'gap_free_sequence',
      passed,
      detail:
        counter === 0
          ? 'The Record is empty and its counter is 0.'
          : `${walk.verified} imprints numbered 1..${counter} verified without a gap; the counter agrees${reach(walk)}.`,
    };
  const bounds = boundsOk ? '' : `numbered ${min ?? '-'}..${max ?? '-'} with the counter at ${counter}`;
  return {
    name: 'gap_free_sequence',
    passed,
    detail: `The sequence has gaps or extra numbers: ${[bounds, p.count ? listed(p) : ''].filter(Boolean).join('; ')}.`,
  };
}

function receipts(facts: TrialFacts): Result {
  const p = problemsOf(facts, 'receipts');
  const walk = facts.verification.walks.find((w) => w.walk === 'imprints')!;
  return {
    name: 'receipts',
    passed: p.count === 0,
    detail:
      p.count === 0
        ? `Each of ${walk.verified} imprints verified has its record.imprint receipt${reach(walk)}.`
        : `${listed(p)}.`,
  };
}

function anchorChain(facts: TrialFacts): Result {
  const p = problemsOf(facts, 'anchor_chain');
  const walk = facts.verification.walks.find((w) => w.walk === 'ledger')!;
  return {
    name: 'anchor_chain',
    passed: p.count === 0,
    detail:
      p.count === 0
        ? `${count(walk.days ?? 0, 'anchor chains', 'anchors chain')} from genesis and verify; ${walk.verified} receipt leaves recompute${reach(walk)}.`
        : `${listed(p)}.`,
  };
}

function boundaries(census: CensusBody | null): Result {
  if (!census)
    return {
      name: 'boundaries',
      passed: false,
      detail: 'The trial could not run to the end (an internal error); it counts as failed.',
    };
  return {
    name: 'boundaries',
    passed: census.all_bound && census.fully_accounted,
    detail: `${census.active} of ${census.total_boundaries} boundaries active on their live probes (${census.unbound_count} unbound); inventory ${census.fully_accounted ? 'fully accounted' : 'not fully accounted'}.`,
  };
}

/** The five trials from what one verification run found, as the answer /api/self-trials keeps. */
export function trialsView(facts: TrialFacts, census: CensusBody | null, at: string): TrialsView {
  const results = [recordWindowTrial(facts.window), gapFree(facts), anchorChain(facts)];
  results.push(boundaries(census), receipts(facts));
  const trials = results.map((result) => ({ ...result, checked_at: at }));
  const passed = trials.filter((trial) => trial.passed).length;
  return {
    ok: true,
    schema: 'civitas.self-trials.v1',
    checked_at: at,
    as_of: at,
    all_passed: passed === trials.length,
    passed,
    failed: trials.length - passed,
    trials,
    boundaries: census
      ? {
          total: census.total_boundaries,
          active: census.active,
          unbound_count: census.unbound_count,
          all_bound: census.all_bound,
          fully_accounted: census.fully_accounted,
        }
      : null,
    verification: facts.verification,
  };
}
