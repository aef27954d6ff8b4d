/**
 * GET /api/organism (and the /organism page): the organism in one view — state, vitals,
 * metabolism, drift, season and the self-trials. It reads only what it shows: the blocks of
 * /api/state, /api/vitals, /api/metabolism, /api/drift and /api/season it keeps, from the same
 * functions those views use, not the whole views (on the embedded database every statement runs
 * after the one before, so a statement whose answer is dropped costs time all the same).
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { RECORD_COUNTS, heldSummary, type RecordCounts } from '../../record/queries.ts';
import { keptSelfTrials } from '../checks/knowledge.ts';
import { vitalsHeadline } from '../vitals/vitals.ts';
import { metabolismDay } from '../vitals/metabolism.ts';
import { driftSummary } from '../themes/drift.ts';
import { seasonSoFar } from './season.ts';
import { latestAnchor, recordBlock } from './state.ts';
import { one, type Counts } from '../../db/rows.ts';

/**
 * The Record's counts, the population (the Record's tallies, migration 0022), the receipts and
 * the anchors (record_tallies, migration 0067), in one statement: what /api/state reads in four.
 */
async function tallies(ctx: AppContext) {
  return one(
    await ctx.db.query<RecordCounts & Counts<'humans' | 'agents' | 'receipts' | 'anchors'>>(
      `select ${RECORD_COUNTS},
              (select value from record_tallies where name = 'sovereigns') as humans,
              (select value from record_tallies where name = 'agents') as agents,
              coalesce((select sum(receipts) from receipt_tallies), 0) as receipts,
              coalesce((select value from record_tallies where name = 'anchors'), 0) as anchors`,
    ),
  );
}

/** GET /api/organism: the organism in one view (the host is for the self-trials' census). */
export async function organismView(ctx: AppContext, host: CensusHost) {
  const asOf = ctx.clock.now().toISOString();
  const [counts, latest, held, vitals, metabolism, trials, drift, season] = await Promise.all([
    tallies(ctx),
    latestAnchor(ctx),
    heldSummary(ctx.db),
    vitalsHeadline(ctx),
    metabolismDay(ctx),
    keptSelfTrials(ctx, host),
    driftSummary(ctx),
    seasonSoFar(ctx),
  ]);
  return {
    ok: true as const,
    schema: 'civitas.organism.v1' as const,
    as_of: asOf,
    population: { humans: counts.humans, agents: counts.agents },
    record: recordBlock(counts),
    ledger: { receipts: counts.receipts, anchors: counts.anchors, latest_anchor: latest },
    quarantine: { unattested: counts.unattested, held },
    vitals,
    metabolism,
    drift,
    season: {
      season: season.season,
      day: season.day,
      days: season.days,
      figures: season.figures,
      themes: season.themes.slice(0, 5),
    },
    boundaries: trials.boundaries,
    self_trials: {
      as_of: trials.as_of,
      all_passed: trials.all_passed,
      passed: trials.passed,
      failed: trials.failed,
      trials: trials.trials.map((trial) => ({ name: trial.name, passed: trial.passed })),
    },
    see: {
      state: '/api/state',
      vitals: '/api/vitals',
      metabolism: '/api/metabolism',
      self_trials: '/api/self-trials',
      failures: '/api/failures',
      promises: '/api/promises',
      drift: '/api/drift',
      season: '/api/season',
    },
  };
}
