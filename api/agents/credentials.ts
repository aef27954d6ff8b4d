import { createHash, timingSafeEqual } from 'node:crypto';
import { pooledRandomBytes } from '../random-pool.ts';

/** `cs_` + 32 random bytes, base64url (DESIGN.md section 2). Shown once; only its SHA-256 is kept. */
export function newContinuitySecret(): string {
  return `cs_${pooledRandomBytes(32).toString('base64url')}`;
}

/** `rt_` + 32 random bytes, base64url: the relay token an attesting sovereign mints. */
export function newRelayToken(): string {
  return `rt_${pooledRandomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented credential against a stored SHA-256. */
export function matchesHash(presented: string | undefined, storedHash: string | null): boolean {
  if (!presented || !storedHash) return false;
  const a = Buffer.from(sha256Hex(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
