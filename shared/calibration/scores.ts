/**
 * Calibration arithmetic (pure): Brier score, log score and the reliability diagram of resolved
 * prophecies. Calibration measures graded predictions about the service itself; it does not
 * establish accuracy for any outside decision.
 */
import { kAnonymousCount, type KAnonymousCount, K_ANONYMITY_THRESHOLD } from '../boundaries/k-anonymity.ts';

export const CALIBRATION_SCOPE =
  'Calibration measures graded predictions about the service itself. It does not establish accuracy for any outside decision.';

/** The metrics a prophecy may name: each is resolved from stored data as of the due time. */
export const METRICS = ['imprints_lifetime', 'agents', 'humans', 'receipts'] as const;
export type Metric = (typeof METRICS)[number];
export const METRIC_MEANING: Record<Metric, string> = {
  imprints_lifetime: 'imprints ever recorded',
  agents: 'agent handles ever seen',
  humans: 'sovereigns who crossed',
  receipts: 'receipts recorded',
};

export const COMPARATORS = ['gte', 'lt'] as const;
export type Comparator = (typeof COMPARATORS)[number];
export const COMPARATOR_SIGN: Record<Comparator, string> = { gte: '≥', lt: '<' };

export const PROBABILITY_MIN = 0.01;
export const PROBABILITY_MAX = 0.99;
export const DUE_DAYS_MIN = 1;
export const DUE_DAYS_MAX = 365;

export interface Resolved {
  probability: number;
  outcome: boolean;
}

export function outcomeOf(comparator: Comparator, observed: number, threshold: number): boolean {
  return comparator === 'gte' ? observed >= threshold : observed < threshold;
}

/** Mean squared error of the probability against the outcome (0 best, 1 worst; 0.25 for always 50%). */
export function brierScore(items: Resolved[]): number | null {
  if (!items.length) return null;
  return items.reduce((sum, r) => sum + (r.probability - (r.outcome ? 1 : 0)) ** 2, 0) / items.length;
}

/** Mean natural log of the probability given to what happened (0 best, more negative worse). */
export function logScore(items: Resolved[]): number | null {
  if (!items.length) return null;
  return (
    items.reduce((sum, r) => sum + Math.log(r.outcome ? r.probability : 1 - r.probability), 0) / items.length
  );
}

export const BIN_COUNT = 10;

export interface ReliabilityBin {
  from: number;
  to: number;
  /** k-anonymous: `fewer than 5` below five predictions (zero included) */
  count: KAnonymousCount;
  /** null when the bin holds fewer than five predictions */
  mean_probability: number | null;
  observed_frequency: number | null;
}

function round(n: number, places = 6): number {
  const f = 10 ** places;
  return Math.round(n * f) / f;
}

/** Ten bins of predicted probability [0,0.1), …, [0.9,1.0]; small bins publish no figures. */
export function reliabilityDiagram(items: Resolved[]): ReliabilityBin[] {
  const bins = Array.from({ length: BIN_COUNT }, () => [] as Resolved[]);
  for (const item of items) {
    const bin = bins[Math.min(BIN_COUNT - 1, Math.floor(item.probability * BIN_COUNT))];
    if (bin === undefined) throw new RangeError(`probability ${item.probability} is outside [0, 1]`);
    bin.push(item);
  }
  return bins.map((bin, i) => {
    const big = bin.length >= K_ANONYMITY_THRESHOLD;
    return {
      from: round(i / BIN_COUNT, 2),
      to: round((i + 1) / BIN_COUNT, 2),
      count: kAnonymousCount(bin.length),
      mean_probability: big ? round(bin.reduce((s, r) => s + r.probability, 0) / bin.length) : null,
      observed_frequency: big ? round(bin.filter((r) => r.outcome).length / bin.length) : null,
    };
  });
}

export interface CalibrationSummary {
  count: number;
  brier_score: number | null;
  log_score: number | null;
  reliability: ReliabilityBin[];
}

export function summarize(items: Resolved[]): CalibrationSummary {
  const brier = brierScore(items);
  const log = logScore(items);
  return {
    count: items.length,
    brier_score: brier === null ? null : round(brier),
    log_score: log === null ? null : round(log),
    reliability: reliabilityDiagram(items),
  };
}

/**
 * A reliability bin's kept sums (migration 0079, `calibration_tallies`): what `summarize` computes
 * from the resolved prophecies themselves, added up as each is resolved.
 */
export interface BinTally {
  bin: number;
  n: number;
  n_true: number;
  /** numeric columns arrive as text; a double is typed either way by its entity (read through `Number`) */
  sum_probability: number | string;
  sum_brier: number | string;
  sum_log: number | string;
}

/** `summarize` of the prophecies whose bins' sums are `tallies` (any number of rows per bin). */
export function summarizeTallies(tallies: readonly BinTally[]): CalibrationSummary {
  const bins = Array.from({ length: BIN_COUNT }, () => ({ n: 0, n_true: 0, p: 0 }));
  let n = 0;
  let brier = 0;
  let log = 0;
  for (const t of tallies) {
    // Clamped into 0…BIN_COUNT-1, so the bin exists.
    const bin = bins[Math.min(BIN_COUNT - 1, Math.max(0, t.bin))]!;
    bin.n += Number(t.n);
    bin.n_true += Number(t.n_true);
    bin.p += Number(t.sum_probability);
    n += Number(t.n);
    brier += Number(t.sum_brier);
    log += Number(t.sum_log);
  }
  return {
    count: n,
    brier_score: n ? round(brier / n) : null,
    log_score: n ? round(log / n) : null,
    reliability: bins.map((bin, i) => {
      const big = bin.n >= K_ANONYMITY_THRESHOLD;
      return {
        from: round(i / BIN_COUNT, 2),
        to: round((i + 1) / BIN_COUNT, 2),
        count: kAnonymousCount(bin.n),
        mean_probability: big ? round(bin.p / bin.n) : null,
        observed_frequency: big ? round(bin.n_true / bin.n) : null,
      };
    }),
  };
}

/** A prophecy counts as "right" for streaks when it leaned (p ≠ 0.5) towards what happened. */
export function leanedRight(item: Resolved): boolean {
  return item.outcome ? item.probability > 0.5 : item.probability < 0.5;
}

/** Seasons are calendar quarters (UTC): `2026-Q4` runs from 2026-10-01 to 2027-01-01. */
export function seasonOf(at: Date): { season: string; start: Date; end: Date } {
  const year = at.getUTCFullYear();
  const quarter = Math.floor(at.getUTCMonth() / 3);
  return {
    season: `${year}-Q${quarter + 1}`,
    start: new Date(Date.UTC(year, quarter * 3, 1)),
    end: new Date(Date.UTC(year, quarter * 3 + 3, 1)),
  };
}
