/**
 * failure_projection: an external provider's or the runtime's own failure words never leave under
 * civitas's name. What leaves is the catalog's reason and hint, plus which lane failed.
 */
import { ERRORS } from '../../errors.ts';
import type { ExportRole } from '../keys.ts';

/** Where a failure can come from (checkout doors, `/api/soul`, `/api/treasury`, MCP, mail, reach). */
export const FAILURE_LANES = [
  'checkout',
  'soul',
  'treasury',
  'mcp',
  'mail',
  'reach',
  'identity',
  'runtime',
] as const;
export type FailureLane = (typeof FAILURE_LANES)[number];

export interface FailureRecord {
  lane: string;
  /** True when an outside provider (payment, identity, mail) failed, false for our own runtime. */
  external: boolean;
  provider?: string | null;
  provider_code?: string | null;
  /** The provider's or runtime's own words: never public. */
  message: string;
  stack?: string | null;
  provider_request_id?: string | null;
  http_status?: number | null;
}

export interface FailureView {
  ok: false;
  reason: 'provider_unavailable' | 'internal_error';
  hint: string;
  lane: FailureLane;
}

/** failure_projection — checkout doors, `/api/soul`, `/api/treasury`, MCP, mail and reach lanes. */
export function projectFailure(failure: FailureRecord): FailureView {
  const reason = failure.external === true ? 'provider_unavailable' : 'internal_error';
  const lane: FailureLane = (FAILURE_LANES as readonly string[]).includes(failure.lane)
    ? (failure.lane as FailureLane)
    : 'runtime';
  return { ok: false, reason, hint: ERRORS[reason].hint, lane };
}

export const BOUNDARY_EXPORT_ROLES = {
  FAILURE_LANES: 'vocabulary',
  projectFailure: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
