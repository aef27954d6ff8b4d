/**
 * Random bytes for the write path, taken from a pool refilled 4 KB at a time, as Node's own
 * crypto.randomUUID does. Each `randomBytes(n)` call goes into the crypto library on its own: a
 * receipt's salt and a new handle's continuity secret cost about 16 µs per write together in the
 * CPU profile at 8 connections (docs/record.md, "Benchmark"); one fill of the pool serves hundreds.
 * The bytes are the same CSPRNG's; each is handed out once and wiped from the pool as it goes.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
/** Larger requests than this go to the crypto library directly (a pool serves many small ones). */
export const POOLED_MAX_BYTES = 256;

const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

/** Makes room for `n` bytes: the pool is refilled when fewer than `n` are left. */
function reserve(n: number): void {
  if (next + n > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
}

/** `n` random bytes of the process's CSPRNG, a copy no other caller is given. */
export function pooledRandomBytes(n: number): Buffer {
  if (n > POOLED_MAX_BYTES) return randomBytes(n);
  reserve(n);
  const bytes = Buffer.from(pool.subarray(next, next + n));
  pool.fill(0, next, next + n);
  next += n;
  return bytes;
}

/** One random byte (0–255), without a Buffer: ulid's generator asks for one per character (api/ids.ts). */
export function pooledRandomByte(): number {
  reserve(1);
  const byte = pool[next]!; // next < POOL_BYTES after reserve
  pool[next++] = 0;
  return byte;
}
