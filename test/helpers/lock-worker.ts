/**
 * A second (and third) process contending for the embedded directory lock, for
 * test/api/db/data-dir-lock.test.ts. On `{ go: { dir, at } }` it waits until `at` (ms since the
 * epoch, so contenders start together), tries the lock and reports; on `{ release }` it lets go.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireDataDirLock, DataDirLockedError } from '../../api/db/data-dir-lock.ts';

/** Spun, not slept, at the end of the wait: a timer may fire a few milliseconds late. */
const SPIN_MS = 5;

let release: (() => Promise<void>) | undefined;

process.on('message', async (message: { go?: { dir: string; at: number }; release?: true }) => {
  if (message.go) {
    // Asleep until just before `at` (spinning all of it was 10 CPU-s a run), then spin: both
    // contenders leave this loop within the same millisecond.
    await sleep(Math.max(0, message.go.at - Date.now() - SPIN_MS));
    while (Date.now() < message.go.at) {
      // spin
    }
    try {
      release = acquireDataDirLock(message.go.dir);
      process.send?.({ won: true, pid: process.pid });
    } catch (error) {
      process.send?.({
        won: false,
        pid: process.pid,
        locked: error instanceof DataDirLockedError,
        message: (error as Error).message,
      });
    }
  }
  if (message.release) {
    await release?.();
    release = undefined;
    process.send?.({ released: true });
  }
});
process.send?.({ ready: true });
process.on('disconnect', () => process.exit(0));
