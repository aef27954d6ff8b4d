/**
 * Requests that arrive together share one run of the same work, but never one that began before
 * they arrived: a caller that finds a run in flight waits for the next run, which starts when that
 * one ends and answers every caller waiting for it. Each answer is therefore computed after its
 * request came in (exactly what it would have got alone, at some moment while it waited), and a
 * burst costs one run per run-time instead of one run each. Per process; nothing is kept once a
 * run has answered, so there is nothing to invalidate.
 *
 * `gather`: an idle key's run begins on the event loop's next check phase (`setImmediate`), after
 * the requests already received have been read, and every caller until then shares it. For the
 * embedded database, which answers without leaving the thread: a run begun at once holds the
 * thread, so the requests that came with it are only read after it and each start a run of their
 * own. (The same reason the Record's sequencer starts its batches there: docs/record.md.)
 */
const sharedAnswers = new WeakSet<object>();

/**
 * True for an object a coalesced run answered with: the same object goes to every caller of the
 * run, so what is derived from it alone (its JSON text, api/plugins/serialize-once.ts) can be
 * derived once. Such an answer is never changed after its run.
 */
export function isSharedAnswer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && sharedAnswers.has(value);
}

export function coalescer<K, V>(): (key: K, run: () => Promise<V>, gather?: boolean) => Promise<V> {
  interface Slot {
    running: Promise<V> | null;
    next: Promise<V> | null;
    /** A run that will begin on the next check phase (gather), shared by everyone until it begins. */
    gathering: Promise<V> | null;
  }
  const slots = new Map<K, Slot>();
  const start = (key: K, slot: Slot, run: () => Promise<V>) => {
    const promise: Promise<V> = run()
      .then((value) => {
        if (typeof value === 'object' && value !== null) sharedAnswers.add(value);
        return value;
      })
      .finally(() => {
        if (slot.running === promise) slot.running = null;
        if (!slot.running && !slot.next && !slot.gathering) slots.delete(key);
      });
    slot.running = promise;
    return promise;
  };
  return (key, run, gather = false) => {
    let slot = slots.get(key);
    if (!slot) {
      slot = { running: null, next: null, gathering: null };
      slots.set(key, slot);
    }
    if (slot.gathering) return slot.gathering;
    const running = slot.running;
    if (!running && gather) {
      const state = slot;
      state.gathering = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        state.gathering = null;
        return start(key, state, run);
      });
      return state.gathering;
    }
    if (!running) return start(key, slot, run);
    if (slot.next) return slot.next;
    const state = slot;
    const next = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        state.next = null;
        return state.running ?? start(key, state, run);
      });
    state.next = next;
    return next;
  };
}
