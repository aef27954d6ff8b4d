/**
 * How one synthetic probe is judged: the projector runs on a literal record, and passes only if
 * no sentinel and no forbidden field name appears anywhere in its output AND every required
 * public field is present (with its expected value where one is given).
 */
import type { ExportRole } from './keys.ts';
import { findForbiddenKeys, findSentinelLeaks } from './sentinels.ts';

export interface ProbeKeep {
  /** Dotted path into the output (`entries.0.actor`); '' is the output itself. */
  path: string;
  equals?: unknown;
}

export interface ProbeCase {
  name: string;
  /** Arguments the projector or policy function is called with (deep-frozen). */
  args: readonly unknown[];
  keeps?: readonly ProbeKeep[];
  forbidKeys?: readonly string[];
  /** Extra judgement for policy outputs: a failure detail, or null when satisfied. */
  judge?: (output: unknown) => string | null;
}

export interface ProbeOutcome {
  ok: boolean;
  detail: string;
}

/** Projectors and policy functions differ in their parameters; the census only calls them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any function: the census only calls it
export type BoundaryFunction = (...args: any[]) => unknown;

function at(value: unknown, path: string): unknown {
  if (path === '') return value;
  let node = value;
  for (const step of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[step];
  }
  return node;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Runs one probe case against a projector. Never throws: a throwing projector fails its probe. */
export function evaluateProbe(project: BoundaryFunction, probe: ProbeCase): ProbeOutcome {
  let output: unknown;
  try {
    output = project(...probe.args);
  } catch (error) {
    return {
      ok: false,
      detail: `${probe.name}: projector threw ${error instanceof Error ? error.name : 'a value'}`,
    };
  }
  if (
    output !== null &&
    typeof output === 'object' &&
    typeof (output as { then?: unknown }).then === 'function'
  ) {
    return { ok: false, detail: `${probe.name}: projector returned a promise; projections are synchronous` };
  }
  const leaks = findSentinelLeaks(output);
  if (leaks.length) return { ok: false, detail: `${probe.name}: sentinel leaked (${leaks.join(', ')})` };
  const keys = findForbiddenKeys(output, probe.forbidKeys);
  if (keys.length) return { ok: false, detail: `${probe.name}: forbidden field ${keys.join(', ')}` };
  for (const keep of probe.keeps ?? []) {
    const value = at(output, keep.path);
    if (value === undefined)
      return { ok: false, detail: `${probe.name}: public field ${keep.path || '(output)'} missing` };
    if ('equals' in keep && !sameJson(value, keep.equals))
      return {
        ok: false,
        detail: `${probe.name}: public field ${keep.path || '(output)'} is not the expected value`,
      };
  }
  const verdict = probe.judge ? probe.judge(output) : null;
  if (verdict !== null) return { ok: false, detail: `${probe.name}: ${verdict}` };
  return { ok: true, detail: `${probe.name}: redacted, public fields kept` };
}

/** Freezes a probe literal all the way down, so no projector can damage the next census run. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export const BOUNDARY_EXPORT_ROLES = {
  evaluateProbe: 'component',
  deepFreeze: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
