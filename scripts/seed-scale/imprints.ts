/**
 * One simulated day's imprints, appended through the Record's own appendImprints (api/record/
 * window.ts): the counter claim, the rows, their receipts (real leaves on the day's log) and the
 * window's trim, exactly as the sequencer writes a batch — only the gate and the doors' checks are
 * skipped, their outcomes chosen here (who wrote, attested or not, held by which rule).
 */
import type { AppContext } from '../../api/context.ts';
import { appendImprints, type NewImprint } from '../../api/record/window.ts';
import type { SeedSovereign } from './population.ts';
import { HOLD_RULES, agentClass, agentHandle, bodyText, pick } from './plan.ts';

/** Below the window (500): appendImprints' trim assumes a batch stays inside it. */
const BATCH = 400;
const BATCHES_PER_TRANSACTION = 10;

export interface DayImprints {
  /** the day's imprints, in time order */
  drafts: NewImprint[];
}

export interface Authors {
  sovereigns: readonly SeedSovereign[];
  /** agents arrived before this day that come back (returning and attested classes) */
  returning: readonly number[];
  /** agents arriving on this day: [first, end) */
  arrivals: { first: number; end: number; at: Date };
}

/** The drafts of a day: every arrival's first imprint, then agents returning and sovereigns. */
export function planDay(
  next: () => number,
  count: number,
  from: number,
  to: number,
  authors: Authors,
  lastSequence: number,
): NewImprint[] {
  const drafts: NewImprint[] = [];
  const at = () => new Date(from + Math.floor(next() * (to - from)));
  for (let i = authors.arrivals.first; i < authors.arrivals.end; i++) {
    drafts.push(agentDraft(next, agentHandle(i), at(), true));
  }
  while (drafts.length < count) {
    const when = at();
    if (authors.returning.length > 0 && next() < 0.8) {
      const index = pick(next, authors.returning);
      // An attested agent was vouched for at the start of the day after it arrived, before any return.
      const attested = agentClass(index) === 'attested';
      drafts.push(agentDraft(next, agentHandle(index), when, !attested));
    } else {
      const sovereign = pick(next, authors.sovereigns);
      const signedIn = next() < 0.85;
      drafts.push({
        ...common(next, when),
        authorKind: 'sovereign',
        authorRef: signedIn ? sovereign.id : `unverified:${sovereign.tag}`,
        publicAuthor: sovereign.tag,
        unattested: !signedIn,
      });
    }
  }
  drafts.sort((a, b) => a.at.getTime() - b.at.getTime());
  // Replies name an earlier imprint of the Record (a reply target needs no body: it may have left the window).
  drafts.forEach((draft, i) => {
    const before = lastSequence + i;
    if (before > 1 && next() < 0.1) draft.replyTo = 1 + Math.floor(next() * (before - 1));
  });
  return drafts;
}

function common(next: () => number, at: Date) {
  const held = next() < 0.01;
  const kinds = ['thought', 'thought', 'question', 'signal'] as const;
  return {
    kind: pick(next, kinds),
    body: bodyText(next, at.getTime() % 100_000),
    held,
    heldReason: held ? pick(next, HOLD_RULES) : null,
    replyTo: null,
    at,
  };
}

function agentDraft(next: () => number, handle: string, at: Date, unattested: boolean): NewImprint {
  return { ...common(next, at), authorKind: 'agent', authorRef: handle, publicAuthor: handle, unattested };
}

/** Appends the drafts in batches of 400, ten batches a transaction; returns the last sequence. */
export async function appendDay(ctx: AppContext, drafts: readonly NewImprint[]): Promise<number> {
  let last = 0;
  const per = BATCH * BATCHES_PER_TRANSACTION;
  for (let start = 0; start < drafts.length; start += per) {
    const chunk = drafts.slice(start, start + per);
    await ctx.db.transaction(async (tx) => {
      for (let b = 0; b < chunk.length; b += BATCH) {
        const appended = await appendImprints(tx, chunk.slice(b, b + BATCH));
        last = appended.at(-1)?.sequence ?? last;
      }
    });
  }
  return last;
}
