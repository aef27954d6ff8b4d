/**
 * The full re-verification from genesis, for operators (`npm run verify:full`,
 * scripts/verify-full.ts): every walk in mode `full`, from the first imprint, log day and census
 * to the head, in steps of at most `batch` items, each step its own transaction under the
 * verification lock and its own checkpoint (the walk's stored cursor). A run stops when its time
 * is up and the next one resumes where it stopped; problems it finds are stored like any walk's,
 * so the next job run turns the right trial red.
 */
import type { AppContext } from '../../context.ts';
import { KNOWLEDGE_LOCK, VERIFY_BATCH } from './knowledge.ts';
import { WALKS } from './facts.ts';
import { advance, readWalk, startLap, type Walk } from './walks/walk.ts';

type AnyWalk = Walk<unknown>;

export interface FullProgress {
  /** false: another process held the lock (a job run); try again shortly */
  locked: boolean;
  /** every walk reached the head in this lap */
  done: boolean;
  checked: number;
}

/** Begins a lap from genesis for each walk whose last lap ended (or every walk, with `restart`). */
export async function beginFullVerification(ctx: AppContext, restart = false): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [KNOWLEDGE_LOCK]);
    for (const walk of WALKS as readonly AnyWalk[]) {
      const state = await readWalk(tx, walk, 'full');
      if (restart || !state || state.lap_started_at === null) await startLap(tx, ctx, walk, 'full');
    }
  });
}

/** One checkpointed step of the full run: at most `batch` items per walk still under way. */
export async function fullVerificationStep(ctx: AppContext, batch = VERIFY_BATCH): Promise<FullProgress> {
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.kysely
      .selectNoFrom((eb) =>
        eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(KNOWLEDGE_LOCK)]).as('locked'),
      )
      .execute();
    if (!lock?.locked) return { locked: false, done: false, checked: 0 };
    let done = true;
    let checked = 0;
    for (const walk of WALKS as readonly AnyWalk[]) {
      const state = await readWalk(tx, walk, 'full');
      if (!state || state.lap_started_at === null) continue;
      const step = await advance(tx, ctx, walk, 'full', batch);
      checked += step.checked;
      if (!step.lap_completed) done = false;
    }
    return { locked: true, done, checked };
  });
}

/**
 * Runs the full re-verification until it reaches the head or `seconds` have passed (then it stops
 * at its last checkpoint; run it again to resume). Waits briefly while a job run holds the lock.
 */
export async function verifyFull(
  ctx: AppContext,
  options: { seconds?: number; batch?: number; restart?: boolean } = {},
): Promise<{ done: boolean; checked: number }> {
  const deadline = Date.now() + (options.seconds ?? 60) * 1000;
  await beginFullVerification(ctx, options.restart);
  let checked = 0;
  while (Date.now() < deadline) {
    const step = await fullVerificationStep(ctx, options.batch);
    checked += step.checked;
    if (step.done) return { done: true, checked };
    if (!step.locked) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { done: false, checked };
}
