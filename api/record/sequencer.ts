import type { Database, Sql } from '../db/database.ts';
import { observeImprintBatch } from '../plugins/metrics.ts';
import { Refusal } from '../../shared/errors.ts';
import { BURST_WINDOW_MS, gate, type GateVerdict } from '../../shared/record/gate.ts';
import { appendImprints, type AppendedImprint, type NewImprint } from './window.ts';
import { SEQUENCER_POLICY } from './sequencer-policy.ts';
import type { RowOf } from '../db/rows.ts';
import type { Imprint } from './entities.ts';

/**
 * The Record's group commit (docs/record.md, "The sequencer"). Every imprint, through whichever
 * door, waits here; one batch at a time per process takes everything waiting at that moment and
 * records it in one transaction: each door's own rows, one reply check, the spam gate, one counter
 * claim, N imprints, N receipts, one window trim, one commit. Each caller is answered only after
 * that commit, so an acknowledged imprint is durable.
 */

/** What every waiting imprint brings, whatever its door. */
export interface Draft {
  /** Whose imprint it is, as the gate sees it (author_ref). One per batch: see takeBatch. */
  authorRef: string;
  body: string;
  replyTo: number | null;
  at: Date;
}

/** An imprint ready to append, and how to answer its caller once it has a sequence. */
export interface Admitted<R> {
  imprint: NewImprint;
  answer(appended: AppendedImprint): R;
}

/**
 * A door's part in a batch, each called once per batch with all of that door's drafts, in batch
 * order. A Refusal in a result refuses that imprint alone; the rest of the batch goes on.
 */
export interface Door<D extends Draft, S, R> {
  /** Takes the door's row locks and checks credentials (before anything is read for the gate). */
  lock(tx: Sql, drafts: D[]): Promise<Array<S | Refusal>>;
  /**
   * True when the lock step itself created the author (an agent's first imprint): an author with
   * no imprints yet has no history for the gate to read, so its facts are known without a query.
   */
  fresh?(state: S): boolean;
  /** Writes the door's own rows now that the gate has spoken. */
  admit(
    tx: Sql,
    entries: Array<{ draft: D; state: S; verdict: GateVerdict }>,
  ): Promise<Array<Admitted<R> | Refusal>>;
}

type AnyDoor = Door<Draft, unknown, unknown>;
type Outcome = { value: unknown } | { refusal: Refusal };

interface Waiting {
  door: AnyDoor;
  draft: Draft;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Thrown inside the transaction's work (nothing committed): the batch may be retried imprint by imprint. */
class BeforeCommit extends Error {
  readonly original: unknown;
  constructor(original: unknown) {
    super('batch failed before commit');
    this.original = original;
  }
}

class Sequencer {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private pumpScheduled = false;
  /** Writers the next batch waits for (SEQUENCER_POLICY.expectedAfter, when the last batch finished). */
  private expected = 0;
  private linger: NodeJS.Timeout | undefined;
  private lingered = false;
  /** Authors with an imprint in a batch not yet answered. */
  private readonly busy = new Set<string>();
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  submit<D extends Draft, S, R>(door: Door<D, S, R>, draft: D): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({
        door: door as unknown as AnyDoor,
        draft,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.schedulePump();
    });
  }

  /**
   * Starts batches when SEQUENCER_POLICY.schedule says (the event loop's next check phase).
   */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    SEQUENCER_POLICY.schedule(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Starts batches while fewer than `pipeline` are in flight and something can go (a second one only past `pipelineMin` waiting). */
  private pump(): void {
    const { pipeline, pipelineMin } = SEQUENCER_POLICY;
    while (this.inFlight < pipeline && this.waiting.length > 0) {
      if (this.inFlight > 0 && this.waiting.length < pipelineMin) return;
      if (this.inFlight === 0 && this.lingering()) return;
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      this.inFlight += 1;
      for (const one of batch) this.busy.add(one.draft.authorRef);
      void observeImprintBatch(batch.length, this.commit(batch)).finally(() => {
        this.inFlight -= 1;
        this.expected = SEQUENCER_POLICY.expectedAfter(batch.length, this.waiting.length);
        for (const one of batch) this.busy.delete(one.draft.authorRef);
        this.schedulePump();
      });
    }
  }

  /** True while the first batch should wait for more writers to come back (`lingerMs` at most). */
  private lingering(): boolean {
    if (this.waiting.length >= this.expected || this.lingered) {
      clearTimeout(this.linger);
      this.linger = undefined;
      this.lingered = false;
      return false;
    }
    this.linger ??= setTimeout(() => {
      this.lingered = true;
      this.pump();
    }, SEQUENCER_POLICY.lingerMs);
    return true;
  }

  /**
   * Everything waiting, in arrival order, but one imprint per author and none by an author whose
   * imprint is still in flight: a second imprint by the same author waits for a later batch, so
   * its gate and its door see the first one exactly as if they had been recorded one after the other.
   */
  private takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    const authors = new Set<string>();
    for (const waiting of this.waiting) {
      const author = waiting.draft.authorRef;
      if (batch.length < SEQUENCER_POLICY.maxBatch && !authors.has(author) && !this.busy.has(author)) {
        authors.add(author);
        batch.push(waiting);
      } else {
        later.push(waiting);
      }
    }
    this.waiting = later;
    return batch;
  }

  /**
   * Records a batch and answers its callers. If the transaction fails before its commit (a bad
   * row, a deadlock), nothing of it was written: each imprint is then retried alone, so one
   * failing imprint fails only its own caller. A failed commit itself is answered as failed for all.
   */
  private async commit(batch: Waiting[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.db.sqlTransaction(async (tx) => {
        try {
          return await recordBatch(tx, batch);
        } catch (error) {
          throw new BeforeCommit(error);
        }
      });
    } catch (error) {
      if (error instanceof BeforeCommit && batch.length > 1) {
        for (const one of batch) await this.commit([one]);
        return;
      }
      for (const one of batch) one.reject(error instanceof BeforeCommit ? error.original : error);
      return;
    }
    // recordBatch answers one outcome per waiting imprint, in batch order.
    outcomes.forEach((outcome, i) => {
      const waiting = batch[i]!;
      if ('refusal' in outcome) waiting.reject(outcome.refusal);
      else waiting.resolve(outcome.value);
    });
  }
}

// Every `i` below is a position in `batch` (from open() and byDoor), and every `k` a position in the
// inputs of a call that answers one result per input, in order (the Door contract, gateDrafts,
// appendImprints): each `!` marks such a read, and none can miss.
async function recordBatch(tx: Sql, batch: Waiting[]): Promise<Outcome[]> {
  const outcomes: Array<Outcome | undefined> = new Array(batch.length);
  const states: unknown[] = new Array(batch.length);
  const open = () => batch.map((_, i) => i).filter((i) => outcomes[i] === undefined);

  for (const [door, indexes] of byDoor(batch, open())) {
    const locked = await door.lock(
      tx,
      indexes.map((i) => batch[i]!.draft),
    );
    locked.forEach((state, k) =>
      state instanceof Refusal ? (outcomes[indexes[k]!] = { refusal: state }) : (states[indexes[k]!] = state),
    );
  }

  const missing = await missingReplyTargets(
    tx,
    open().map((i) => batch[i]!.draft.replyTo),
  );
  for (const i of open()) {
    const replyTo = batch[i]!.draft.replyTo;
    if (replyTo !== null && missing.has(replyTo)) outcomes[i] = { refusal: noReplyTarget(replyTo) };
  }

  const gated = open();
  const fresh = (i: number) => batch[i]!.door.fresh?.(states[i]) === true;
  const known = gated.filter((i) => !fresh(i));
  const verdicts = await gateDrafts(
    tx,
    known.map((i) => batch[i]!.draft),
  );
  const verdictOf = new Map(known.map((i, k) => [i, verdicts[k]!]));
  for (const i of gated) if (fresh(i)) verdictOf.set(i, gateFirst(batch[i]!.draft));

  const admitted = new Map<number, Admitted<unknown>>();
  for (const [door, indexes] of byDoor(batch, gated)) {
    const results = await door.admit(
      tx,
      indexes.map((i) => ({ draft: batch[i]!.draft, state: states[i], verdict: verdictOf.get(i)! })),
    );
    results.forEach((result, k) =>
      result instanceof Refusal
        ? (outcomes[indexes[k]!] = { refusal: result })
        : admitted.set(indexes[k]!, result),
    );
  }

  const order = [...admitted.keys()].sort((a, b) => a - b);
  const appended = await appendImprints(
    tx,
    order.map((i) => admitted.get(i)!.imprint),
  );
  order.forEach((i, k) => (outcomes[i] = { value: admitted.get(i)!.answer(appended[k]!) }));
  return outcomes as Outcome[];
}

function byDoor(batch: Waiting[], indexes: number[]): Map<AnyDoor, number[]> {
  const groups = new Map<AnyDoor, number[]>();
  for (const i of indexes) {
    const door = batch[i]!.door; // indexes are positions in batch
    groups.set(door, [...(groups.get(door) ?? []), i]);
  }
  return groups;
}

/** reply_to must name an imprint that exists (its body may have left the window; the thread stays). */
export function noReplyTarget(replyTo: number): Refusal {
  return new Refusal('invalid_request', {
    issues: [{ path: 'reply_to', message: `No public imprint #${replyTo} to reply to.` }],
  });
}

async function missingReplyTargets(tx: Sql, replyTos: Array<number | null>): Promise<Set<number>> {
  const wanted = [...new Set(replyTos.filter((r): r is number => r !== null))];
  if (wanted.length === 0) return new Set();
  // Raw: the imprint write path (bench), one prepared statement per batch.
  const found = await tx.query<Pick<RowOf<typeof Imprint>, 'sequence'>>(
    'select sequence from imprints where sequence = any($1::bigint[]) and held = false',
    [wanted],
  );
  const present = new Set(found.map((row) => row.sequence));
  return new Set(wanted.filter((r) => !present.has(r)));
}

/** The spam gate for every draft, with each author's recent facts read in one query (after the doors' locks). */
export async function gateDrafts(tx: Sql, drafts: Draft[]): Promise<GateVerdict[]> {
  if (drafts.length === 0) return [];
  // Raw: the imprint write path (bench); per-author subqueries over unnest … with ordinality.
  const facts = await tx.query<{
    bodies: NonNullable<RowOf<typeof Imprint>['body']>[] | null;
    burst: number;
  }>(
    `select array(select body from imprints where author_ref = a.ref and body is not null order by sequence desc limit 20) as bodies,
            (select count(*) from imprints where author_ref = a.ref and created_at > a.since) as burst
     from unnest($1::text[], $2::timestamptz[]) with ordinality as a(ref, since, n) order by a.n`,
    [
      drafts.map((d) => d.authorRef),
      drafts.map((d) => new Date(d.at.getTime() - BURST_WINDOW_MS).toISOString()),
    ],
  );
  // One row per draft, in draft order (unnest … with ordinality).
  return drafts.map((draft, i) => {
    const { bodies, burst } = facts[i]!;
    return gate({ body: draft.body, recentBodies: bodies ?? [], recentCount: burst });
  });
}

/** The gate for an author's first imprint: no recent bodies, no burst. */
function gateFirst(draft: Draft): GateVerdict {
  return gate({ body: draft.body, recentBodies: [], recentCount: 0 });
}

const sequencers = new WeakMap<Database, Sequencer>();

/** Hands a draft to this process's sequencer for the database; resolves after its batch commits. */
export function sequence<D extends Draft, S, R>(db: Database, door: Door<D, S, R>, draft: D): Promise<R> {
  let sequencer = sequencers.get(db);
  if (!sequencer) sequencers.set(db, (sequencer = new Sequencer(db)));
  return sequencer.submit(door, draft);
}
