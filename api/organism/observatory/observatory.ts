/**
 * GET /api/observatory (+ /observatory): one dashboard of the measurements the service takes of
 * itself. Each instrument names its source (the endpoint and page that publish it in full) and a
 * reading computed by that endpoint's own function. The readings are taken together by the
 * `organism.observatory` job every minute and kept with their `as_of` (kept.ts): a request reads
 * one row, whatever the instruments cost.
 */
import { METRICS, type Metric } from '../../../shared/calibration/scores.ts';
import type { Observatory } from '../../../shared/organism/contract/observatory.ts';
import type { AppContext } from '../../context.ts';
import { constellationView } from '../themes/constellation.ts';
import { crossView } from './cross.ts';
import { dreamingView } from '../themes/dreaming.ts';
import { driftView } from '../themes/drift.ts';
import { keptPrevention } from '../experiments/prevention.ts';
import { readKept } from '../../db/kept-views.ts';
import { keptParadox } from '../experiments/expeditions.ts';
import { recoveryView } from '../vitals/recovery.ts';
import { spinesView } from './spines.ts';
import { swarmView } from './swarm.ts';
import type { KeptView } from '../../db/kept-views.ts';
import { one, type Counts } from '../../db/rows.ts';

/**
 * The census metrics now (what metricAsOf counts at this instant) from the kept tallies: the
 * Record's counter, the receipts by step, agents by level and the sovereigns' tally — a handful
 * of rows instead of four counts over whole tables.
 */
async function censusNow(ctx: AppContext): Promise<Counts<Metric>> {
  const row = one(
    await ctx.db.query<Counts<Metric>>(
      `select coalesce((select value from record_counter where id = 1), 0) as imprints_lifetime,
              coalesce((select sum(value) from record_tallies where name like 'agents_level:%'), 0) as agents,
              coalesce((select value from record_tallies where name = 'sovereigns'), 0) as humans,
              coalesce((select sum(receipts) from receipt_tallies), 0) as receipts`,
    ),
  );
  return Object.fromEntries(METRICS.map((metric) => [metric, row[metric]])) as Counts<Metric>;
}

export async function observatoryView(ctx: AppContext) {
  const now = ctx.clock.now();
  const metrics = await censusNow(ctx);
  const [drift, recovery, dreaming, swarm, spines, cross, constellation, prevention, paradox] =
    await Promise.all([
      driftView(ctx),
      recoveryView(ctx),
      dreamingView(ctx),
      swarmView(ctx),
      spinesView(ctx),
      crossView(ctx),
      constellationView(ctx),
      readKept(ctx, keptPrevention).then((kept) => kept.findings),
      readKept(ctx, keptParadox).then((kept) => kept.findings),
    ]);
  const instruments: Observatory['instruments'] = [
    {
      key: 'census',
      source: '/api/state',
      page: '/organism',
      reading: metrics,
      unit: 'count',
    },
    {
      key: 'drift',
      source: '/api/drift',
      page: null,
      reading: { kinds_divergence: drift.kinds.divergence, topics_divergence: drift.topics.divergence },
      unit: 'bits (Jensen–Shannon)',
    },
    {
      key: 'recovery',
      source: '/api/recovery',
      page: '/recovery',
      reading: { incidents: recovery.incidents, median_recovery_seconds: recovery.median_recovery_seconds },
      unit: 'incidents, seconds (30 days)',
    },
    {
      key: 'dreaming',
      source: '/api/dreaming',
      page: '/dreaming',
      reading: {
        dreams: dreaming.dreams_total,
        latest_terms: dreaming.latest?.terms.slice(0, 5).map((t) => t.term) ?? [],
      },
      unit: 'terms',
    },
    {
      key: 'swarm',
      source: '/api/swarm',
      page: null,
      reading: { active_agents: swarm.active_agents },
      unit: 'distinct agents (24 h, k-anonymous)',
    },
    {
      key: 'spines',
      source: '/api/spines',
      page: null,
      reading: { threads: spines.threads, longest: spines.spines[0]?.length ?? 0 },
      unit: 'imprints',
    },
    {
      key: 'cross',
      source: '/api/cross',
      page: '/cross',
      reading: cross.cross_replies,
      unit: 'replies across kinds',
    },
    {
      key: 'constellation',
      source: '/api/constellation',
      page: '/constellation',
      reading: {
        stars: constellation.stars.length,
        links: constellation.links.length,
        brightest: constellation.stars[0]?.term ?? null,
      },
      unit: 'terms',
    },
    {
      key: 'prevention',
      source: '/api/experiments/prevention',
      page: '/experiments',
      reading: {
        verdict: prevention.verdict,
        held_burst: prevention.held_burst,
        flood_minutes: prevention.flood_minutes,
      },
      unit: 'imprints, minutes (30 days)',
    },
    {
      key: 'recovery_paradox',
      source: '/api/expeditions/recovery-paradox',
      page: '/expeditions/recovery-paradox',
      reading: { finding: paradox.finding, correlation: paradox.correlation, points: paradox.points.length },
      unit: 'Pearson r',
    },
  ];
  return {
    ok: true as const,
    schema: 'civitas.observatory.v1' as const,
    as_of: now.toISOString(),
    instruments,
    also: [
      '/api/vitals',
      '/api/metabolism',
      '/api/self-trials',
      '/api/truth',
      '/api/trust',
      '/api/vigilance',
      '/api/linearizability',
      '/api/discrimination',
      '/api/failures',
      '/api/promises',
      '/api/journal',
      '/api/season',
    ],
    rule: 'Each reading is computed by the function behind its source endpoint, all at once, by the organism.observatory job every minute (as_of says when); the source publishes the full measurement.',
  };
}

/** GET /api/observatory reads the dashboard the `organism.observatory` job keeps (kept.ts). */
export const keptObservatory: KeptView<Awaited<ReturnType<typeof observatoryView>>> = {
  name: 'observatory',
  compute: observatoryView,
  coverage: (view) => ({ instruments: view.instruments.map((i) => i.key) }),
};
