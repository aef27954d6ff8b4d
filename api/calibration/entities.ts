/**
 * The calibration family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { COMPARATORS, type Metric } from '../../shared/calibration/scores.ts';
import { int8 } from '../db/rows.ts';

/** A probability that a metric crosses a threshold by a due time, by the service or a sovereign; resolved against what was observed. */
export const Prophecy = defineEntity({
  name: 'Prophecy',
  tableName: 'prophecies',
  properties: {
    id: p.text().primary(),
    forecasterKind: p.enum(['service', 'sovereign']),
    forecasterId: p.uuid().nullable(),
    metric: p.text().$type<Metric>(),
    comparator: p.enum(COMPARATORS),
    threshold: int8(),
    probability: p.double(),
    madeAt: p.datetime(),
    dueAt: p.datetime(),
    season: p.text().nullable(),
    basis: p.text().nullable(),
    receiptId: p.text(),
    resolvedAt: p.datetime().nullable(),
    observed: int8().nullable(),
    outcome: p.boolean().nullable(),
    resolutionReceiptId: p.text().nullable(),
  },
});

/** A sovereign's public promise with a stake, answered kept or broken (by the author, a steward or lapse). */
export const Pact = defineEntity({
  name: 'Pact',
  tableName: 'pacts',
  properties: {
    id: p.text().primary(),
    authorId: p.uuid().nullable(),
    title: p.text(),
    detail: p.text().default(''),
    stake: p.integer(),
    madeAt: p.datetime(),
    dueAt: p.datetime(),
    status: p.enum(['open', 'kept', 'broken']).default('open'),
    resolvedAt: p.datetime().nullable(),
    receiptId: p.text(),
    resolvedBy: p.enum(['author', 'steward', 'lapse']).nullable(),
    resolutionReceiptId: p.text().nullable(),
  },
});

/** One sovereign's points on a side of a pact, and the payout once it is answered. */
export const PactStake = defineEntity({
  name: 'PactStake',
  tableName: 'pact_stakes',
  properties: {
    pactId: p.text().primary(),
    sovereignId: p.uuid().primary(),
    side: p.enum(['kept', 'broken']),
    points: p.integer(),
    createdAt: p.datetime(),
    receiptId: p.text(),
    payout: p.integer().nullable(),
  },
});

/** Per forecaster kind and reliability bin, the resolved prophecies' count and sums (migration 0079). */
export const CalibrationTally = defineEntity({
  name: 'CalibrationTally',
  tableName: 'calibration_tallies',
  properties: {
    forecasterKind: p.text().primary(),
    bin: p.smallint().primary().autoincrement(false),
    n: int8(),
    nTrue: int8(),
    sumProbability: p.decimal().default(0),
    sumBrier: p.decimal().default(0),
    sumLog: p.double().default(0),
  },
});

/** An actor's trailing run of prophecies that leaned right, or of kept pacts (migration 0079). */
export const CalibrationStreak = defineEntity({
  name: 'CalibrationStreak',
  tableName: 'calibration_streaks',
  properties: {
    kind: p.enum(['prophecies', 'pacts']).primary(),
    actor: p.text().primary(),
    forecasterKind: p.text(),
    actorId: p.uuid().nullable(),
    length: int8(),
    since: p.datetime(),
    lastAt: p.datetime(),
    lastId: p.text(),
  },
});
