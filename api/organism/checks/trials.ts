/**
 * Self-trials: the service's invariants re-run live on every request, each from stored data —
 * the Record window, the gap-free sequence, the anchor chain (checkLogConsistency), the
 * boundaries (the live census) and the imprints' receipts. Nothing is cached or stored.
 */
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { count } from '../../../shared/plural.ts';
import type { selfTrialsSchema, trialSchema } from '../../../shared/organism/contract/checks.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import { liveCensus, type CensusHost } from '../../boundaries/census.ts';
import { checkLogConsistency } from '../../ledger/consistency.ts';

/** A trial's result and the whole run: the contract's types (shared/organism/contract/checks.ts). */
export type Trial = z.infer<typeof trialSchema>;
export type TrialsView = z.infer<typeof selfTrialsSchema>;

const n = (value: unknown) => Number(value ?? 0);

/**
 * Erasure clears a person's bodies wherever they sit (their imprints read `public_author =
 * 'redacted'`), so a body erased inside the window counts as kept-then-erased, not as lost: the
 * window holds when retained + erased-in-window = min(lifetime, 500) and nothing older is kept.
 */
async function recordWindow(ctx: AppContext): Promise<Omit<Trial, 'checked_at'>> {
  const [row] = await ctx.db.query<Record<string, unknown>>(
    `select (select value from record_counter where id = 1) as lifetime,
            count(*) filter (where body is not null) as retained,
            count(*) filter (where body is null and public_author = 'redacted'
                             and sequence > (select value from record_counter where id = 1) - $1) as erased,
            count(*) filter (where body is not null and sequence <= (select value from record_counter where id = 1) - $1) as too_old
       from imprints`,
    [RECORD_WINDOW],
  );
  const lifetime = n(row.lifetime);
  const retained = n(row.retained);
  const erased = n(row.erased);
  const tooOld = n(row.too_old);
  const expected = Math.min(lifetime, RECORD_WINDOW);
  const passed = retained + erased === expected && tooOld === 0;
  const erasedNote =
    erased > 0 ? ` (plus ${count(erased, 'body', 'bodies')} erased at their author's request)` : '';
  return {
    name: 'record_window',
    passed,
    detail: passed
      ? `${count(retained, 'body', 'bodies')} retained${erasedNote} = min(lifetime ${lifetime}, ${RECORD_WINDOW}); none older than the newest ${RECORD_WINDOW}.`
      : `${count(retained, 'body', 'bodies')} retained${erasedNote}, expected min(lifetime ${lifetime}, ${RECORD_WINDOW}) = ${expected}; ${count(tooOld, 'retained body is', 'retained bodies are')} older than the newest ${RECORD_WINDOW}.`,
  };
}

async function gapFree(ctx: AppContext): Promise<Omit<Trial, 'checked_at'>> {
  const [row] = await ctx.db.query<Record<string, unknown>>(
    `select count(*) as count, min(sequence) as min, max(sequence) as max, (select value from record_counter where id = 1) as counter from imprints`,
  );
  const count = n(row.count);
  const counter = n(row.counter);
  if (count === 0) {
    const passed = counter === 0;
    return {
      name: 'gap_free_sequence',
      passed,
      detail: passed
        ? 'The Record is empty and its counter is 0.'
        : `No imprints are stored but the counter reads ${counter}.`,
    };
  }
  const min = n(row.min);
  const max = n(row.max);
  const passed = count === max && min === 1 && counter === max;
  return {
    name: 'gap_free_sequence',
    passed,
    detail: passed
      ? `${count} imprints numbered 1..${max} without a gap; the counter agrees.`
      : `${count} imprints stored, numbered ${min}..${max}, counter ${counter}: ${count === max && min === 1 ? 'the counter disagrees' : 'the sequence has gaps or extra numbers'}.`,
  };
}

async function anchorChain(ctx: AppContext): Promise<Omit<Trial, 'checked_at'>> {
  const check = await checkLogConsistency(ctx);
  return {
    name: 'anchor_chain',
    passed: check.ok,
    detail: check.ok
      ? `${check.anchors} anchors chain from genesis and verify; ${check.receipts_checked} receipt leaves recompute.`
      : `${count(check.problems.length, 'problem', 'problems')}: ${check.problems.slice(0, 5).join('; ')}.`,
  };
}

async function receipts(ctx: AppContext): Promise<Omit<Trial, 'checked_at'>> {
  const [row] = await ctx.db.query<Record<string, unknown>>(
    `select count(*) as imprints,
            count(*) filter (where r.id is null) as missing,
            count(*) filter (where r.id is not null and (r.step <> 'record.imprint' or (r.subject is not null and r.subject <> 'imprint:' || i.sequence))) as mismatched
       from imprints i left join receipts r on r.id = i.receipt_id`,
  );
  const missing = n(row.missing);
  const mismatched = n(row.mismatched);
  const passed = missing === 0 && mismatched === 0;
  return {
    name: 'receipts',
    passed,
    detail: passed
      ? `Each of ${n(row.imprints)} imprints has its record.imprint receipt.`
      : `${missing} imprints name a receipt that does not exist; ${mismatched} receipts name another step or subject.`,
  };
}

/**
 * Runs every trial now. The boundaries trial is the live census (all_bound and fully_accounted),
 * which probes the running app's own routes: that is why this takes a CensusHost beside the
 * AppContext (built from the instance by censusHost in api/boundaries/live-probes.ts).
 */
export async function runSelfTrials(ctx: AppContext, host: CensusHost): Promise<TrialsView> {
  let census: Awaited<ReturnType<typeof liveCensus>> | null = null;
  const boundaries = async (): Promise<Omit<Trial, 'checked_at'>> => {
    census = await liveCensus(ctx, host);
    const passed = census.all_bound && census.fully_accounted;
    return {
      name: 'boundaries',
      passed,
      detail: `${census.active} of ${census.total_boundaries} boundaries active on their live probes (${census.unbound_count} unbound); inventory ${census.fully_accounted ? 'fully accounted' : 'not fully accounted'}.`,
    };
  };
  const runs: [Trial['name'], () => Promise<Omit<Trial, 'checked_at'>>][] = [
    ['record_window', () => recordWindow(ctx)],
    ['gap_free_sequence', () => gapFree(ctx)],
    ['anchor_chain', () => anchorChain(ctx)],
    ['boundaries', boundaries],
    ['receipts', () => receipts(ctx)],
  ];
  const trials: Trial[] = [];
  for (const [name, run] of runs) {
    let result: Omit<Trial, 'checked_at'>;
    try {
      result = await run();
    } catch {
      // A trial that cannot run has not passed; its words stay inside (failure_projection).
      result = {
        name,
        passed: false,
        detail: 'The trial could not run to the end (an internal error); it counts as failed.',
      };
    }
    trials.push({ ...result, checked_at: ctx.clock.now().toISOString() });
  }
  const passed = trials.filter((trial) => trial.passed).length;
  const c = census as Awaited<ReturnType<typeof liveCensus>> | null;
  return {
    ok: true,
    schema: 'civitas.self-trials.v1',
    checked_at: ctx.clock.now().toISOString(),
    all_passed: passed === trials.length,
    passed,
    failed: trials.length - passed,
    trials,
    boundaries: c
      ? {
          total: c.total_boundaries,
          active: c.active,
          unbound_count: c.unbound_count,
          all_bound: c.all_bound,
          fully_accounted: c.fully_accounted,
        }
      : null,
  };
}
