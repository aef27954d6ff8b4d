/**
 * The sequencer's policy: every knob of how batches form, in one place (docs/record.md, "The
 * sequencer"). Each says what it trades and the bench figure that set it (`npm run bench`, the
 * imprint rows: writes/s at 8 and 64 connections beside pgbench TPC-B in the same run).
 *
 * One batch is in flight per process, and that is not a knob: two in flight (`pipeline: 2`, the
 * second started from 8 waiting imprints on, `pipelineMin: 8`) did not earn their keep once a
 * batch took four round trips. On a copy of the 1,000,000-imprint Record, three alternating pairs
 * (load average 7–9): with the two knobs 0.60 / 0.83 / 0.66× pgbench at 8 connections and
 * 1.49 / 1.49 / 0.89× at 64; one batch in flight 0.35 / 0.66 / 0.87× and 1.18 / 2.37 / 1.81×
 * (docs/record.md, "Benchmark"). With the second batch started from one waiting imprint, the 8
 * writers split into small batches: 283 and 340 writes/s at 8 connections against 614 and 988 with
 * one in flight (two alternating pairs, big Record, load about 4).
 */
export const SEQUENCER_POLICY = {
  /**
   * At most this many imprints share one transaction: a bound on its size and lock time, below
   * RECORD_WINDOW so a batch's trim stays inside the window (api/record/window.ts). No bench figure
   * chose 256: at the bench's 64 writers a batch never reaches it.
   */
  maxBatch: 256,
  /**
   * How long, at most, the next batch waits for the writers the previous one answered (the
   * `expected` count below). At a steady concurrency those writers come back a fraction of a
   * millisecond apart, not in one event-loop turn: without the wait the first one back starts a
   * batch alone and the rest wait a whole commit behind it. Measured at 8 writers (new handles,
   * 6 s, three alternating pairs, load 4–5, batch sizes counted from the rows' `xmin`): with the
   * linger about 85% of batches hold 8, at 943 / 1,131 / 722 writes/s; without it (expectedAfter
   * 0) batches split 1 + 7 and 2 + 6, at 855 / 850 / 619 writes/s. A lone writer goes at once (one
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
