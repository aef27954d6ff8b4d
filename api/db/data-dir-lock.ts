import { createHash, randomBytes } from 'node:crypto';
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * An exclusive lock on the embedded database directory, held for the life of the process
 * (PGlite does not lock its directory; two processes on one directory corrupt it).
 *
 * The lock file `civitas.lock` records who holds it: pid, host, boot id and the process's start
 * time (Linux), so a live pid can be told apart from a reused one. Every write is atomic:
 * - a free directory is locked by hard-linking a complete temp file to the lock (link fails if
 *   the lock exists, so two starters cannot both create it, and nobody ever reads a half file);
 * - a stale lock (holder gone) is taken over only by the process that exclusively creates the
 *   claim file for that exact stale content; it re-reads the lock under its claim, renames its own
 *   record over it, and re-reads to compare. A claim whose owner died is skipped (next number).
 * A live holder is refused with what to do; so is a live pid that is not the holder (reused).
 */

const LOCK_FILE = 'civitas.lock';
/** How long a contender waits for a live claim owner to finish its takeover. */
const CLAIM_WAIT_MS = 5_000;

export interface LockRecord {
  pid: number;
  host?: string;
  boot?: string;
  start?: string;
  nonce?: string;
}

/** A refusal to open the directory, with the words to show a person (no stack trace). */
export class DataDirLockedError extends Error {
  readonly code = 'CIVITAS_DATA_DIR_LOCKED';
}

/** For entry points: a locked directory is a person's situation, not a crash. Say what to do, no stack trace. */
export function exitIfLocked(error: unknown): never {
  if (error instanceof DataDirLockedError) {
    process.stderr.write(`civitas cannot start: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

export function acquireDataDirLock(dataDir: string): () => Promise<void> {
  const path = join(dataDir, LOCK_FILE);
  const mine = ownRecord();
  const text = JSON.stringify(mine);
  const deadline = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    if (createExclusive(path, text)) return releaser(path, text);
    const current = readLock(path);
    if (current === undefined) continue; // removed between our attempt and the read: try again
    const verdict = judge(current.record, mine);
    if (verdict.alive)
      throw new DataDirLockedError(lockedMessage(dataDir, path, current.record, verdict.reused));
    const outcome = takeOver(dataDir, path, current.raw, text);
    if (outcome === 'won') return releaser(path, text);
    if (outcome === 'busy' && Date.now() > deadline) {
      throw new DataDirLockedError(
        `Another process is taking over the lock of ${dataDir} and has not finished. Try again in a moment.`,
      );
    }
    if (outcome === 'busy') sleepSync(20);
  }
}

/** Releases only a lock that is still ours. */
function releaser(path: string, text: string) {
  return async () => {
    if (readLock(path)?.raw === text) rmSync(path, { force: true });
  };
}

/** Creates `path` with `text` only if it does not exist; the content is complete when it appears. */
function createExclusive(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, text, { flag: 'wx' });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Replaces the stale lock whose content is `stale` with `text`, if this process wins the claim
 * for that content. `won`: ours now; `lost`: the lock changed, judge again; `busy`: a live
 * process holds the claim and is mid-takeover.
 */
function takeOver(dataDir: string, path: string, stale: string, text: string): 'won' | 'lost' | 'busy' {
  const prefix = `${LOCK_FILE}.claim-${fingerprint(stale)}-`;
  for (let n = 0; n < 64; n++) {
    const claim = join(dataDir, `${prefix}${n}`);
    try {
      writeFileSync(claim, JSON.stringify(ownRecord()), { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readLock(claim);
      // pid 0: the claim is being written this instant, so its owner is alive.
      if (owner && (owner.record.pid === 0 || isAlive(owner.record.pid))) return 'busy';
      continue; // its owner died mid-takeover (or it is being written): the next number decides
    }
    try {
      if (readLock(path)?.raw !== stale) return 'lost';
      const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(temp, text, { flag: 'wx' });
      renameSync(temp, path);
      return readLock(path)?.raw === text ? 'won' : 'lost';
    } finally {
      for (const name of readdirSync(dataDir))
        if (name.startsWith(prefix)) rmSync(join(dataDir, name), { force: true });
    }
  }
  return 'busy';
}

/** Whether the recorded holder still runs: a live pid, and (where this can be told) the same process. */
export function judge(record: LockRecord, mine: LockRecord): { alive: boolean; reused: boolean } {
  if (!record.pid || record.pid === process.pid) return { alive: false, reused: false };
  // Recorded before the last boot: whatever runs under that pid now is not its holder.
  if (record.boot && mine.boot && record.boot !== mine.boot) return { alive: false, reused: false };
  if (!isAlive(record.pid)) return { alive: false, reused: false };
  const start = startTimeOf(record.pid);
  const reused = Boolean(record.start && start && record.start !== start);
  return { alive: true, reused };
}

/** A pid answers signal 0: it runs (EPERM: it runs, owned by another user). Only ESRCH is gone. */
export function isAlive(pid: number, kill: (pid: number, signal: number) => unknown = process.kill): boolean {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedMessage(dataDir: string, path: string, record: LockRecord, reused: boolean): string {
  const where = record.host && record.host !== hostname() ? ` on host ${record.host}` : '';
  if (reused) {
    return (
      `The embedded database in ${dataDir} is locked by process ${record.pid}${where}, but process ${record.pid} running now is not civitas ` +
      '(its pid was reused, for example after a reboot or in a container). ' +
      `If no civitas is running on this directory (check every container or machine that mounts it), delete ${path} and start again. ` +
      'To run several processes, set DATABASE_URL to one PostgreSQL instead.'
    );
  }
  return (
    `The embedded database in ${dataDir} is open in process ${record.pid}${where}. ` +
    'Stop it, or set DATABASE_URL to run several processes on one PostgreSQL.'
  );
}

function readLock(path: string): { raw: string; record: LockRecord } | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { raw, record: parseRecord(raw) };
}

/** The record, or a bare pid (the format before records). */
function parseRecord(raw: string): LockRecord {
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed === 'number') return { pid: parsed };
    if (parsed && typeof parsed === 'object' && Number.isInteger((parsed as LockRecord).pid))
      return parsed as LockRecord;
  } catch {
    // not JSON: an empty or foreign file
  }
  return { pid: Number(raw.trim()) || 0 };
}

function ownRecord(): LockRecord {
  return {
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    start: startTimeOf(process.pid),
    nonce: randomBytes(8).toString('hex'),
  };
}

function fingerprint(raw: string): string {
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

/** Linux: the boot's random id; undefined elsewhere. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Linux: a process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
