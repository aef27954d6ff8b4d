/**
 * GET /api/promises: the service's objectives and whether each is kept now, computed from the
 * stored vitals (last 7 days) and the self-trials the verification job kept (their `as_of`). An
 * objective without measurements is neither kept nor broken: `kept: null`.
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import type { Trial } from '../checks/trials.ts';
import { keptSelfTrials } from '../checks/knowledge.ts';
import { DAY, flushedNow, percentile, windowFigures } from './vitals.ts';
import { count } from '../../../shared/plural.ts';

export const PROMISE_WINDOW_DAYS = 7;
export const AVAILABILITY_TARGET = 0.995;
export const LATENCY_P95_TARGET_MS = 250;

/**
 * The kept self-trials are read alongside the vitals query once this process's vitals are
 * flushed; the host is for a first run's census (keptSelfTrials).
 */
export async function promisesView(ctx: AppContext, host: CensusHost) {
  const { now, end } = await flushedNow(ctx);
  const [figures, trials] = await Promise.all([
    windowFigures(ctx.db, new Date(end.getTime() - PROMISE_WINDOW_DAYS * DAY), end),
    keptSelfTrials(ctx, host),
  ]);
  const trial = (name: Trial['name']) => trials.trials.find((t) => t.name === name)!;
  const availability = figures.requests ? 1 - figures.server_errors / figures.requests : null;
  const p95 = percentile(figures, 0.95);
  const window = `last ${PROMISE_WINDOW_DAYS} days`;
  const promises = [
    {
      name: 'availability',
      objective: `At least ${AVAILABILITY_TARGET * 100}% of requests are answered without a server failure (5xx other than 501 and other than a provider switched off here).`,
      target: AVAILABILITY_TARGET,
      measured: availability === null ? null : Math.round(availability * 1e6) / 1e6,
      kept: availability === null ? null : availability >= AVAILABILITY_TARGET,
      basis: `${count(figures.requests, 'request', 'requests')}, ${count(figures.server_errors, 'server failure', 'server failures')}`,
      window,
      source: '/api/vitals',
    },
    {
      name: 'latency_p95',
      objective: `95% of requests are answered within ${LATENCY_P95_TARGET_MS} ms.`,
      target: LATENCY_P95_TARGET_MS,
      measured: p95,
      kept: p95 === null ? null : p95 < LATENCY_P95_TARGET_MS,
      basis: `latency histogram of ${count(figures.requests, 'request', 'requests')} (p95 read as the bucket bound)`,
      window,
      source: '/api/vitals',
    },
    ...(['boundaries', 'record_window', 'gap_free_sequence', 'anchor_chain', 'receipts'] as const).map(
      (name) => ({
        name,
        objective: OBJECTIVES[name],
        target: true,
        measured: trial(name).passed,
        kept: trial(name).passed,
        basis: trial(name).detail,
        window: `verified, as of ${trials.as_of}`,
        source: '/api/self-trials',
      }),
    ),
  ];
  return {
    ok: true as const,
    schema: 'civitas.promises.v1' as const,
    as_of: now.toISOString(),
    self_trials_as_of: trials.as_of,
    kept: promises.filter((p) => p.kept === true).length,
    broken: promises.filter((p) => p.kept === false).length,
    unmeasured: promises.filter((p) => p.kept === null).length,
    promises,
  };
}

const OBJECTIVES: Record<
  'boundaries' | 'record_window' | 'gap_free_sequence' | 'anchor_chain' | 'receipts',
  string
> = {
  boundaries:
    'Every one of the 23 privacy boundaries is bound on its live probe and the inventory is fully accounted (census all_bound).',
  record_window: 'Only the newest 500 imprints keep their body; retained bodies = min(lifetime, 500).',
  gap_free_sequence: 'Imprint sequence numbers run 1..lifetime without a gap.',
  anchor_chain:
    "Every sealed day's anchor chains from genesis, verifies, and rebuilds from its stored leaves.",
  receipts: 'Every imprint has the receipt of its recording.',
};
