/**
 * navigation_capability: a post-action return target (`return_to`, from a form or a query) may
 * only name a local path. Anything a browser could turn into an off-origin navigation is refused.
 */
import type { ExportRole } from '../keys.ts';

const BASE = 'https://civitas.invalid';
const MAX_LENGTH = 2048;
/** C0 and C1 controls, DEL, line separators and backslashes (browsers strip tabs and newlines inside URLs). */
const FORBIDDEN_DECODED = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/;
/** The raw value additionally may not hold a bare space: a real local path arrives encoded. */
const FORBIDDEN_RAW = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/;

function resolvesLocally(candidate: string): boolean {
  try {
    const url = new URL(candidate, BASE);
    return url.origin === BASE && !url.pathname.startsWith('//');
  } catch {
    return false;
  }
}

/**
 * Returns the local path to navigate to, or null to refuse. The raw value and every
 * percent-decoded form of it must each start with exactly one `/`, hold no control character,
 * whitespace or backslash, and still resolve on this origin after dot-segment normalisation
 * (so `/.//evil`, `/%2F%2Fevil` and `/a/..//evil` are refused).
 */
export function safeReturnTarget(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return null;
  const forms = [value];
  let current = value;
  for (let round = 0; ; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) break;
    if (round === 3) return null; // more layers of encoding than any honest form produces
    forms.push(next);
    current = next;
  }
  if (FORBIDDEN_RAW.test(value)) return null;
  for (const form of forms) {
    if (!form.startsWith('/') || form.startsWith('//') || FORBIDDEN_DECODED.test(form)) return null;
    if (!resolvesLocally(form)) return null;
  }
  const url = new URL(value, BASE);
  const local = url.pathname + url.search + url.hash;
  return local.startsWith('/') && !local.startsWith('//') ? local : null;
}

export const BOUNDARY_EXPORT_ROLES = {
  safeReturnTarget: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
