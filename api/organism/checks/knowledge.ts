/**
 * Self-knowledge kept, not recomputed (docs/organism.md "Self-knowledge kept"). One run of the
 * verification job — `organism.vigilance`, every minute, taken by one process under an advisory
 * lock — advances each walk (walks/) by at most `batch` new items and `batch` re-checked ones,
 * reads the window through its indexes, runs the live census, and keeps the result: the
 * self-trials, the truth round (with its tallies) and the watch pass, with `as_of` and how far
 * verification reached. Requests read that one stored row (keptKnowledge): constant cost.
 *
 * A request that comes before any run was kept runs the first step inline, once per process and
 * however many requests wait (bounded like any run: at most `batch` items per walk), waiting on
 * the lock if another process is running one.
 */
import type { AppContext } from '../../context.ts';
import { Refusal } from '../../../shared/errors.ts';
import { coalescer } from '../../../shared/coalesce.ts';
import { liveCensus, type CensusHost } from '../../boundaries/census.ts';
import type { CensusBody } from '../../../shared/boundaries/census.ts';
import { recordTruthRound, truthChecks, type TruthCheck } from '../mind/truth.ts';
import { readFacts, WALKS } from './facts.ts';
import { trialsView, type TrialFacts, type TrialsView } from './trials.ts';
import { recordWatch, type WatchResult } from './watch.ts';
import { advance } from './walks/walk.ts';
import { one } from '../../db/rows.ts';
import { constant } from '../../db/kysely.ts';

/** The advisory lock of a verification run (the walks, the full run and the kept answer). */
export const KNOWLEDGE_LOCK = 7_212_013;
/** Items each walk verifies at most per run and mode (new ones, then re-checked ones). */
export const VERIFY_BATCH = 20_000;

export interface Kept {
  as_of: string;
  trials: TrialsView;
  truth: TruthCheck[];
  watch: { raised: string[]; cleared: string[] };
}

export interface RunOptions {
  /** items per walk and mode (default VERIFY_BATCH) */
  batch?: number;
  /** wait for the lock instead of skipping (the first request's inline run) */
  wait?: boolean;
  /** do nothing when an answer is already kept (the first request's inline run) */
  onlyIfEmpty?: boolean;
}

interface Walked {
  run: number;
  facts: TrialFacts;
}

/** The walks' step, in one transaction under the lock: null when another process holds it. */
async function walk(ctx: AppContext, options: RunOptions): Promise<Walked | null> {
  const batch = options.batch ?? VERIFY_BATCH;
  return ctx.db.transaction(async (tx) => {
    if (options.wait) await tx.query('select pg_advisory_xact_lock($1)', [KNOWLEDGE_LOCK]);
    else {
      const [lock] = await tx.kysely
        .selectNoFrom((eb) =>
          eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(KNOWLEDGE_LOCK)]).as('locked'),
        )
        .execute();
      if (!lock?.locked) return null;
    }
    if (options.onlyIfEmpty) {
      const [kept] = await tx.kysely
        .selectFrom('self_knowledge')
        .select('as_of')
        .where('id', '=', constant(1))
        .execute();
      if (kept?.as_of) return null;
    }
    const row = one(
      await tx.kysely
        .updateTable('self_knowledge')
        .set((eb) => ({ run: eb('run', '+', 1) }))
        .where('id', '=', constant(1))
        .returning('run')
        .execute(),
    );
    const ends = new Map<string, boolean>();
    for (const w of WALKS) {
      // Each walk is its own type of cursor; advance is generic over it.
      const frontier = await advance(tx, ctx, w as Parameters<typeof advance>[2], 'frontier', batch);
      ends.set(w.name, frontier.end);
      await advance(tx, ctx, w as Parameters<typeof advance>[2], 'sweep', batch);
    }
    return { run: row.run, facts: await readFacts(tx, batch, ends) };
  });
}

/**
 * One verification run: the walks (under the lock), the live census (outside any transaction:
 * its probes are requests of their own), then the kept answer, the watch pass and the truth round
 * in one transaction — only if no newer run began meanwhile (its answer will be the fresher one).
 * The host is for the census. Returns the watch pass (ran: false when it did not keep anything).
 */
export async function knowledgeRun(
  ctx: AppContext,
  host: CensusHost,
  options: RunOptions = {},
): Promise<WatchResult> {
  const walked = await walk(ctx, options);
  if (!walked) return { ran: false, raised: [], cleared: [] };
  let census: CensusBody | null = null;
  try {
    census = await liveCensus(ctx, host);
  } catch {
    // A census that cannot run fails the boundaries trial; its words stay inside (failure_projection).
  }
  const at = ctx.clock.now().toISOString();
  const trials = trialsView(walked.facts, census, at);
  const truth = truthChecks(trials, walked.facts, at);
  const watch = await ctx.db.transaction(async (tx) => {
    const row = one(
      await tx.kysely
        .selectFrom('self_knowledge')
        .select('run')
        .where('id', '=', constant(1))
        .forUpdate()
        .execute(),
    );
    if (row.run !== walked.run) return null;
    const pass = await recordWatch(tx, ctx, trials);
    await tx.query(
      'update self_knowledge set trials = $1::jsonb, truth = $2::jsonb, watch = $3::jsonb, coverage = $4::jsonb, as_of = $5 where id = 1',
      [
        JSON.stringify(trials),
        JSON.stringify(truth),
        JSON.stringify({ raised: pass.raised, cleared: pass.cleared }),
        JSON.stringify(trials.verification),
        at,
      ],
    );
    await recordTruthRound(tx, truth, at);
    return pass;
  });
  return watch ?? { ran: false, raised: [], cleared: [] };
}

const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

async function readKept(ctx: AppContext): Promise<Kept | null> {
  const [row] = await ctx.db.kysely
    .selectFrom('self_knowledge')
    .select(['trials', 'truth', 'watch', 'as_of'])
    .where('id', '=', constant(1))
    .execute();
  if (!row?.as_of || !row.trials) return null;
  const trials = parsed<TrialsView>(row.trials);
  return {
    as_of: trials.as_of,
    trials,
    truth: parsed<TruthCheck[]>(row.truth),
    watch: parsed<Kept['watch']>(row.watch),
  };
}

const firstRuns = coalescer<AppContext, Kept>();

/** No answer kept yet: run the first step inline (waiting on another process's run if need be). */
async function firstKnowledge(ctx: AppContext, host: CensusHost): Promise<Kept> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await knowledgeRun(ctx, host, { wait: true, onlyIfEmpty: true });
    const kept = await readKept(ctx);
    if (kept) return kept;
  }
  throw new Refusal('unavailable');
}

/** What the latest verification run kept: one row read, whatever the Record's size. */
export async function keptKnowledge(ctx: AppContext, host: CensusHost): Promise<Kept> {
  return (await readKept(ctx)) ?? firstRuns(ctx, () => firstKnowledge(ctx, host), ctx.db.embedded);
}

/** GET /api/self-trials: the trials the latest run kept. */
export async function keptSelfTrials(ctx: AppContext, host: CensusHost): Promise<TrialsView> {
  return (await keptKnowledge(ctx, host)).trials;
}
