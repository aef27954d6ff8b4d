/**
 * The sequencer's policy: every knob of how batches form, in one place (docs/record.md, "The
 * sequencer"). Each says what it trades and the bench figure that set it (`npm run bench`, the
 * imprint rows: writes/s at 8 and 64 connections beside pgbench TPC-B in the same run).
 */
export const SEQUENCER_POLICY = {
  /**
   * At most this many imprints share one transaction: a bound on its size and lock time, below
   * RECORD_WINDOW so a batch's trim stays inside the window (api/record/window.ts). No bench figure
   * chose 256: at the bench's 64 writers a batch never reaches it.
   */
  maxBatch: 256,
  /**
   * Batches in flight at once per process: the second prepares (its locks, gate, own rows) while the
   * first commits, then waits on the counter row, so batches append in the order they claim the
   * counter. Chosen when the sequencer was written (commit 2eb052c); no figure for 2 against 1 or 3
   * was recorded, and the 64-writer row (about 1.1× pgbench) is the one it serves.
   */
  pipeline: 2,
  /**
   * A second batch starts only when at least this many imprints wait; fewer wait for the batch in
   * flight to commit and then go together. A batch's cost is mostly fixed (its round trips and one
   * commit), so at low concurrency one larger batch beats two small ones: at 8 writers 0.48 → 0.56×
   * pgbench (about +10% writes/s, −25% CPU per write), 64 writers unchanged (commit c31b8dd).
   */
  pipelineMin: 8,
  /**
   * How long, at most, the next batch waits for the writers the previous one answered (the
   * `expected` count below). At a steady concurrency below pipelineMin those writers come back a
   * fraction of a millisecond apart, not in one event-loop turn: without the wait the first one
   * back started a batch alone and the rest waited a whole commit behind it (batches of 1 and 7 in
   * turn at 8 writers, half the throughput). With it, batches of 8: part of the change that took 8
   * writers to 1.4× pgbench on the machine of commit 464f886 (the trim by key range and planning by
   * key came in the same commit; no figure for the linger alone). A lone writer goes at once (one
   * seen, one back); one that follows a crowd costs at most this much latency.
   */
  lingerMs: 1,
  /**
   * How many writers the next batch waits for (at most lingerMs): those the last batch answered
   * plus those already waiting when it finished. A heuristic: the writers just answered come back
   * soon at a steady concurrency, and no more are known to come. Its figure is lingerMs's.
   */
  expectedAfter: (answered: number, waiting: number): number => answered + waiting,
  /**
   * Batches start on the event loop's next check phase (`setImmediate`), after the I/O already
   * received has been read, so imprints that arrive together share one batch even on the embedded
   * database, which answers without leaving this thread: at 64 connections embedded, about 260 →
   * 2,500 writes/s against starting at once (CHANGELOG, the setImmediate entry).
   */
  schedule: (start: () => void): void => void setImmediate(start),
} as const;
