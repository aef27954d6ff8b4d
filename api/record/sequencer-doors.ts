/**
 * What a door brings to the Record's sequencer (docs/record.md, "The sequencer"): each door (agents
 * in api/agents/agent-imprint.ts, humans in api/record/service.ts) hands it drafts, and takes its
 * part in every batch through these calls.
 */
import type { Sql } from '../db/database.ts';
import type { Refusal } from '../../shared/errors.ts';
import type { GateVerdict } from '../../shared/record/gate.ts';
import type { AppendedImprint, NewImprint } from './window.ts';

/** What every waiting imprint brings, whatever its door. */
export interface Draft {
  /** Whose imprint it is, as the gate sees it (author_ref). One per batch: see takeBatch (sequencer.ts). */
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
   * True when this draft's author may be taken as new without asking the database (an agent's
   * handle this process has not seen, with no proof and no reply): a batch of such drafts only
   * can skip the lock step's round trip (`arrive`).
   */
  mayArrive?(draft: D): boolean;
  /**
   * The lock step of a batch of `mayArrive` drafts, without waiting for an answer: the authors'
   * first rows are sent, and the statement fails (the whole transaction with it) if any author
   * was not new after all. Each draft's state is as `lock` would have given it.
   */
  arrive?(tx: Sql, drafts: D[]): Promise<S[]>;
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
