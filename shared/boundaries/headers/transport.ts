/** connection_claim: every HTTPS response tells the browser never to make a cleartext first request again. */
import type { ExportRole } from '../keys.ts';

/** One year: the floor below which a header does not count as a connection claim. */
export const HSTS_MIN_MAX_AGE = 31_536_000;

/** connection_claim — the Strict-Transport-Security value carried by every HTTPS response. */
export function hstsHeader(): string {
  return 'max-age=63072000; includeSubDomains; preload';
}

/** True when a Strict-Transport-Security value claims the connection for at least a year, subdomains included. */
export function claimsConnection(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const directives = value
    .toLowerCase()
    .split(';')
    .map((d) => d.trim());
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  const seconds = maxAge ? Number(maxAge.slice('max-age='.length).replace(/"/g, '')) : NaN;
  return Number.isInteger(seconds) && seconds >= HSTS_MIN_MAX_AGE && directives.includes('includesubdomains');
}

export const BOUNDARY_EXPORT_ROLES = {
  HSTS_MIN_MAX_AGE: 'vocabulary',
  hstsHeader: 'censused',
  claimsConnection: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
