import { describe, expect, it } from 'vitest';
import { POOLED_MAX_BYTES, pooledRandomByte, pooledRandomBytes } from '../../api/random-pool.ts';

/**
 * The write path's random bytes come from a pool (api/random-pool.ts): every byte is handed out
 * once, across refills, and each caller gets its own copy.
 */
describe('the random pool', () => {
  it('never hands out the same bytes twice, across many refills of the pool', () => {
    const seen = new Set<string>();
    // 16 bytes × 5,000 = 80 KB: about twenty refills of a 4 KB pool, and sizes that do not divide it.
    for (let i = 0; i < 5_000; i++) {
      const size = i % 3 === 0 ? 16 : i % 3 === 1 ? 32 : 24;
      const bytes = pooledRandomBytes(size);
      expect(bytes.length).toBe(size);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(5_000);
  });

  it('gives each caller a copy: changing one answer changes no other', () => {
    const a = pooledRandomBytes(32);
    const before = Buffer.from(a);
    a.fill(0);
    const b = pooledRandomBytes(32);
    expect(b.equals(Buffer.alloc(32))).toBe(false);
    expect(b.equals(before)).toBe(false);
  });

  it('serves single bytes spread over 0–255, and large requests straight from the crypto library', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 25_600; i++) counts[pooledRandomByte()]! += 1;
    // Uniform: about 100 each; a pool that repeated or zeroed bytes would fail this by far.
    expect(Math.min(...counts)).toBeGreaterThan(40);
    expect(Math.max(...counts)).toBeLessThan(180);
    expect(pooledRandomBytes(POOLED_MAX_BYTES + 1).length).toBe(POOLED_MAX_BYTES + 1);
  });
});
