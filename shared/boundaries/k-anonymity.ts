import type { ExportRole } from './keys.ts';

/** DESIGN.md section 4: no published group is smaller than this. */
export const K_ANONYMITY_THRESHOLD = 5;
export const FEWER_THAN_K = 'fewer than 5';

export type KAnonymousCount = number | typeof FEWER_THAN_K;

/**
 * A count that cannot reveal a small group: the exact number from 5 up, otherwise the phrase
 * `fewer than 5` (zero included, so an empty group and a group of one read the same).
 */
export function kAnonymousCount(n: number): KAnonymousCount {
  return Number.isInteger(n) && n >= K_ANONYMITY_THRESHOLD ? n : FEWER_THAN_K;
}

export const BOUNDARY_EXPORT_ROLES = {
  K_ANONYMITY_THRESHOLD: 'vocabulary',
  FEWER_THAN_K: 'vocabulary',
  kAnonymousCount: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
