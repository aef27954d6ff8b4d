/**
 * The Record's group commit (docs/record.md, "The sequencer"). Every imprint, through whichever
 * door, waits here; one batch at a time per process takes everything waiting at that moment and
 * records it in one transaction: each door's own rows, one reply check, the spam gate, one counter
 * claim, N imprints, N receipts, one window trim, one commit. Each caller is answered only after
 * that commit, so an acknowledged imprint is durable. This file is the queue: how batches form and
 * when they start; one batch's work is sequencer-batch.ts, a door's part in it sequencer-doors.ts.
 */
import type { Database } from '../db/database.ts';
import { rolledBack } from '../db/prepared.ts';
import { observeImprintBatch } from '../plugins/metrics.ts';
import { SEQUENCER_POLICY } from './sequencer-policy.ts';
import { recordBatch, type AnyDoor, type Recorded, type Waiting } from './sequencer-batch.ts';
import type { KnownEnd, RecordEnd } from './window.ts';
import type { Door, Draft } from './sequencer-doors.ts';

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
  /** One batch at a time: the next one forms from what waited while it committed. */
  private inFlight = false;
  private pumpScheduled = false;
  /** Writers the next batch waits for (SEQUENCER_POLICY.expectedAfter, when the last batch finished). */
  private expected = 0;
  private linger: NodeJS.Timeout | undefined;
  private lingered = false;
  /**
   * Where this process's last batch left the Record, and whether that batch found the counter
   * where the one before it had left it (no other writer in between): then a batch of arrivals
   * claims at `end` without waiting (docs/record.md, "Arrivals in one round trip").
   */
  private end: RecordEnd | undefined;
  private alone = false;
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

  /** Starts a batch when none is in flight, something waits, and no linger holds it back. */
  private pump(): void {
    if (this.inFlight || this.waiting.length === 0 || this.lingering()) return;
    const batch = this.takeBatch();
    this.inFlight = true;
    void observeImprintBatch(batch.length, this.commit(batch)).finally(() => {
      this.inFlight = false;
      this.expected = SEQUENCER_POLICY.expectedAfter(batch.length, this.waiting.length);
      this.schedulePump();
    });
  }

  /** True while the next batch should wait for more writers to come back (`lingerMs` at most). */
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
   * Everything waiting, in arrival order, but one imprint per author: a second imprint by the same
   * author waits for the next batch, so its gate and its door see the first one exactly as if they
   * had been recorded one after the other. Never empty while something waits (its first is taken).
   */
  private takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    const authors = new Set<string>();
    for (const waiting of this.waiting) {
      const author = waiting.draft.authorRef;
      if (batch.length < SEQUENCER_POLICY.maxBatch && !authors.has(author)) {
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
   * Records a batch and answers its callers: in one round trip when it may (arrivalsAt), else the
   * usual way. If the transaction fails before its commit (a bad row, a deadlock), nothing of it
   * was written: each imprint is then retried alone, so one failing imprint fails only its own
   * caller. A failed commit itself is answered as failed for all.
   */
  private async commit(batch: Waiting[]): Promise<void> {
    const at = this.arrivalsAt(batch);
    if (at) {
      try {
        return this.answer(batch, await this.record(batch, at));
      } catch (error) {
        // Rolled back (another writer moved the Record, an author was not new): nothing was
        // written, and the batch goes the usual way. A commit lost with its connection may have
        // happened: answered as a failed commit is below.
        this.end = undefined;
        if (!(error instanceof BeforeCommit) && !rolledBack(error))
          return batch.forEach((one) => one.reject(error));
      }
    }
    let recorded: Recorded;
    try {
      recorded = await this.record(batch);
    } catch (error) {
      if (error instanceof BeforeCommit && batch.length > 1) {
        for (const one of batch) await this.commit([one]);
        return;
      }
      for (const one of batch) one.reject(error instanceof BeforeCommit ? error.original : error);
      return;
    }
    this.alone = this.end?.value === recorded.from;
    this.answer(batch, recorded);
  }

  /** The batch's transaction; a failure of its work (before the commit) is a BeforeCommit. */
  private record(batch: Waiting[], at?: KnownEnd): Promise<Recorded> {
    return this.db.sqlTransaction((tx) =>
      recordBatch(tx, batch, at).catch((error: unknown) => {
        throw new BeforeCommit(error);
      }),
    );
  }

  /**
   * Where a batch may claim without waiting: on PostgreSQL (the embedded database has no round
   * trip to save), after a batch that saw no other writer, when every author may be taken as new.
   */
  private arrivalsAt(batch: Waiting[]): KnownEnd | undefined {
    const end = this.end;
    if (this.db.embedded || !this.alone || !end?.log) return undefined;
    if (!batch.every((waiting) => waiting.door.mayArrive?.(waiting.draft) === true)) return undefined;
    return { ...end, log: end.log };
  }

  /** Answers each caller (one outcome per waiting imprint, in batch order) and keeps where the batch ended. */
  private answer(batch: Waiting[], recorded: Recorded): void {
    this.end = recorded.end;
    recorded.outcomes.forEach((outcome, i) => {
      const waiting = batch[i]!;
      if ('refusal' in outcome) waiting.reject(outcome.refusal);
      else waiting.resolve(outcome.value);
    });
  }
}

const sequencers = new WeakMap<Database, Sequencer>();

/** Hands a draft to this process's sequencer for the database; resolves after its batch commits. */
export function sequence<D extends Draft, S, R>(db: Database, door: Door<D, S, R>, draft: D): Promise<R> {
  let sequencer = sequencers.get(db);
  if (!sequencer) sequencers.set(db, (sequencer = new Sequencer(db)));
  return sequencer.submit(door, draft);
}
