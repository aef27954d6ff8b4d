/**
 * Boundaries over money: equity_projection and vitals_projection (whose wallet block shares the
 * equity projector). Holders are counted and shares summarised; no holder id leaves.
 */
import { K_ANONYMITY_THRESHOLD, kAnonymousCount, type KAnonymousCount } from '../k-anonymity.ts';
import type { ExportRole } from '../keys.ts';

export interface EquityRecord {
  total_units: number;
  /** How many holders hold each number of units (units > 0, any order): a distribution, no ids. */
  distribution: readonly { units: number; holders: number }[];
  top_holder_id: string | null;
  as_of: string;
}

export interface EquityView {
  as_of: string;
  total_units: number;
  holders: KAnonymousCount;
  /** null under 5 holders: a share of 1 or a Gini of 0 beside "fewer than 5" would say how many. */
  top_holder_share: number | null;
  gini: number | null;
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/**
 * Gini coefficient of the holdings (0 = equal, towards 1 = concentrated), from how many hold each
 * amount: over the holdings sorted ascending, sum((2i - n - 1) * u_i) / (n * total) with i from 1,
 * where a run of c holders of u units from rank r + 1 adds u * c * (2r + c - n). Integer sums, so
 * the same figure as from the holdings one by one.
 */
function gini(distribution: readonly { units: number; holders: number }[], n: number): number {
  const total = distribution.reduce((sum, d) => sum + d.units * d.holders, 0);
  if (n < 2 || total <= 0) return 0;
  const sorted = [...distribution].sort((a, b) => a.units - b.units);
  let weighted = 0;
  let rank = 0;
  for (const { units, holders } of sorted) {
    weighted += units * holders * (2 * rank + holders - n);
    rank += holders;
  }
  return round4(weighted / (n * total));
}

/** equity_projection — `/api/equity` and the wallet block of `/api/vitals`. */
export function projectEquity(equity: EquityRecord): EquityView {
  const held = equity.distribution.filter((d) => d.units > 0 && d.holders > 0);
  const n = held.reduce((sum, d) => sum + d.holders, 0);
  const top = held.reduce((max, d) => Math.max(max, d.units), 0);
  // Under the threshold the concentration figures would reveal the hidden count (a top share of 1
  // is one holder, a Gini of 0.5 two...): only the k-anonymous count is published.
  const hidden = n < K_ANONYMITY_THRESHOLD;
  return {
    as_of: equity.as_of,
    total_units: equity.total_units,
    holders: kAnonymousCount(n),
    top_holder_share: hidden ? null : equity.total_units > 0 ? round4(top / equity.total_units) : 0,
    gini: hidden ? null : gini(held, n),
  };
}

export interface VitalsRecord {
  as_of: string;
  requests_per_minute: number;
  error_rate: number;
  latency_p95_ms: number;
  database: 'ok' | 'degraded' | 'down';
  wallet: EquityRecord;
  operator_email?: string | null;
}

export interface VitalsView {
  as_of: string;
  requests_per_minute: number;
  error_rate: number;
  latency_p95_ms: number;
  database: 'ok' | 'degraded' | 'down';
  wallet: EquityView;
}

/** vitals_projection — `/api/vitals`; its wallet block goes through projectEquity. */
export function projectVitals(vitals: VitalsRecord): VitalsView {
  return {
    as_of: vitals.as_of,
    requests_per_minute: vitals.requests_per_minute,
    error_rate: vitals.error_rate,
    latency_p95_ms: vitals.latency_p95_ms,
    database: vitals.database,
    wallet: projectEquity(vitals.wallet),
  };
}

export const BOUNDARY_EXPORT_ROLES = {
  projectEquity: 'censused',
  projectVitals: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
