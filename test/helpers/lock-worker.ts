/**
 * A second (and third) process contending for the embedded directory lock, for
 * test/api/db/data-dir-lock.test.ts. On `{ go: { dir, at } }` it waits until `at` (ms since the
 * epoch, so contenders start together), tries the lock and reports; on `{ release }` it lets go.
 */
import { acquireDataDirLock, DataDirLockedError } from '../../api/db/data-dir-lock.ts';

let release: (() => Promise<void>) | undefined;

process.on('message', async (message: { go?: { dir: string; at: number }; release?: true }) => {
  if (message.go) {
    while (Date.now() < message.go.at) {
      // spin: both contenders leave this loop within the same millisecond
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
