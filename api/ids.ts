import { randomFillSync } from 'node:crypto';
import { ulid } from 'ulid';

/**
 * Row ids: `prefix_ULID` (time-sortable, 80 random bits). ulid's own generator asks WebCrypto for
 * one byte per character, sixteen calls into the crypto library per id (a tenth of the Record's
 * write path); these bytes come from a pool refilled 4 KB at a time instead, as Node's own
 * crypto.randomUUID does.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

/** ulid's PRNG contract: a number in [0, 1), here one pooled random byte / 256. */
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]! / 256; // next < pool.length: the pool was refilled above when spent
}

/** A new id for a row made at `at`, e.g. newId('rcpt', now) → `rcpt_01J…`. */
export function newId(prefix: string, at: Date): string {
  return `${prefix}_${ulid(at.getTime(), pooledRandom)}`;
}
