import { ulid } from 'ulid';
import { pooledRandomByte } from './random-pool.ts';

/**
 * Row ids: `prefix_ULID` (time-sortable, 80 random bits). ulid's own generator asks WebCrypto for
 * one byte per character, sixteen calls into the crypto library per id (a tenth of the Record's
 * write path); these bytes come from the process's pool instead (api/random-pool.ts).
 */

/** ulid's PRNG contract: a number in [0, 1), here one pooled random byte / 256. */
function pooledRandom(): number {
  return pooledRandomByte() / 256;
}

/** A new id for a row made at `at`, e.g. newId('rcpt', now) → `rcpt_01J…`. */
export function newId(prefix: string, at: Date): string {
  return `${prefix}_${ulid(at.getTime(), pooledRandom)}`;
}
