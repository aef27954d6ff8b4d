/**
 * Requests that arrive together share one run of the same work, but never one that began before
 * they arrived: a caller that finds a run in flight waits for the next run, which starts when that
 * one ends and answers every caller waiting for it. Each answer is therefore computed after its
 * request came in (exactly what it would have got alone, at some moment while it waited), and a
 * burst costs one run per run-time instead of one run each. Per process; nothing is kept once a
 * run has answered, so there is nothing to invalidate.
 */
export function coalescer<K, V>(): (key: K, run: () => Promise<V>) => Promise<V> {
  interface Slot {
    running: Promise<V> | null;
    next: Promise<V> | null;
  }
  const slots = new Map<K, Slot>();
  const start = (key: K, slot: Slot, run: () => Promise<V>) => {
    const promise: Promise<V> = run().finally(() => {
      if (slot.running === promise) slot.running = null;
      if (!slot.running && !slot.next) slots.delete(key);
    });
    slot.running = promise;
    return promise;
  };
  return (key, run) => {
    let slot = slots.get(key);
    if (!slot) {
      slot = { running: null, next: null };
      slots.set(key, slot);
    }
    const running = slot.running;
    if (!running) return start(key, slot, run);
    if (slot.next) return slot.next;
    const state = slot;
    const next = running.then(() => undefined, () => undefined).then(() => {
      state.next = null;
      return state.running ?? start(key, state, run);
    });
    state.next = next;
    return next;
  };
}
