import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An exclusive lock on the embedded database directory, held for the life of the process.
 * A stale lock (its process gone) is taken over; a live one is refused with a clear message.
 */
export function acquireDataDirLock(dataDir: string): () => Promise<void> {
  const path = join(dataDir, 'civitas.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return async () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The embedded database in ${dataDir} is open in process ${holder}. ` +
            'Stop it, or set DATABASE_URL to run several processes on one PostgreSQL.',
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
