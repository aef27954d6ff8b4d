/**
 * The organism family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { int8 } from '../db/rows.ts';

/** One process's request counts and latency buckets for one minute. */
export const VitalsMinute = defineEntity({
  name: 'VitalsMinute',
  tableName: 'vitals_minutes',
  properties: {
    processId: p.text().primary(),
    minute: p.datetime().primary(),
    requests: p.integer().default(0),
    clientErrors: p.integer().default(0),
    serverErrors: p.integer().default(0),
    latencySumMs: p.double().default(0),
    latencyMaxMs: p.double().default(0),
    buckets: p.array<number>().columnType('int[]'),
  },
});

/** One failure on a lane; `external` marks one whose cause lay outside the service. */
export const Failure = defineEntity({
  name: 'Failure',
  tableName: 'failures',
  properties: {
    id: int8().primary().autoincrement(),
    lane: p.text(),
    at: p.datetime(),
    external: p.boolean().default(false),
  },
});

/** One of the service's checks of its own claims, with the evidence (at most one a minute per claim). */
export const TruthCheck = defineEntity({
  name: 'TruthCheck',
  tableName: 'truth_checks',
  properties: {
    id: int8().primary().autoincrement(),
    claim: p.text(),
    held: p.boolean(),
    evidence: p.text(),
    checkedAt: p.datetime(),
    /** What this check changed (first_check, now_holds, no_longer_holds), null if nothing: set by a trigger (migration 0077). */
    change: p.text().nullable(),
  },
});

/** The service's watch over one trial: passing or not, and since when. */
export const VigilanceWatch = defineEntity({
  name: 'VigilanceWatch',
  tableName: 'vigilance_watches',
  properties: {
    trial: p.text().primary(),
    passed: p.boolean(),
    since: p.datetime(),
    checkedAt: p.datetime(),
  },
});

/** The service's alert about one of its trials: raised, and cleared later. */
export const VigilanceAlert = defineEntity({
  name: 'VigilanceAlert',
  tableName: 'vigilance_alerts',
  properties: {
    id: int8().primary().autoincrement(),
    trial: p.text(),
    raisedAt: p.datetime(),
    clearedAt: p.datetime().nullable(),
    detail: p.text(),
    receiptId: p.text(),
  },
});

/** A day's digest of the bodies in the window: the terms it found. */
export const Dream = defineEntity({
  name: 'Dream',
  tableName: 'dreams',
  properties: {
    date: p.date().primary(),
    windowStart: p.datetime(),
    windowEnd: p.datetime(),
    bodies: p.integer(),
    terms: p.json<unknown>(),
    madeAt: p.datetime(),
    receiptId: p.text(),
  },
});

/** The discrimination figures kept by their job (one row, id 1). */
export const DiscriminationResult = defineEntity({
  name: 'DiscriminationResult',
  tableName: 'discrimination_results',
  properties: {
    id: p.integer().primary().autoincrement(false),
    asOf: p.datetime(),
    figures: p.json<unknown>(),
  },
});

/** One sovereign's stance on a claim. */
export const MindStance = defineEntity({
  name: 'MindStance',
  tableName: 'mind_stances',
  properties: {
    claim: p.text().primary(),
    sovereignId: p.uuid().primary(),
    stance: p.enum(['agree', 'disagree', 'unsure']),
    reason: p.text(),
    takenAt: p.datetime(),
    receiptId: p.text(),
  },
});

/** A scheduled job's last start, finish and outcome, and its tries and failures. */
export const JobRun = defineEntity({
  name: 'JobRun',
  tableName: 'job_runs',
  properties: {
    job: p.text().primary(),
    lastStartedAt: p.datetime(),
    lastFinishedAt: p.datetime(),
    lastOutcome: p.enum(['ok', 'failed']),
    lastFailedAt: p.datetime().nullable(),
    tries: int8().defaultRaw('0'),
    failures: int8().defaultRaw('0'),
  },
});

/** One run of the service's experiments on itself: study, variation, findings. */
export const OrganismRun = defineEntity({
  name: 'OrganismRun',
  tableName: 'organism_runs',
  properties: {
    id: p.text().primary(),
    study: p.text(),
    ranAt: p.datetime(),
    variation: p.text().nullable(),
    findings: p.json<unknown>(),
    receiptId: p.text(),
  },
});

/** The one kept answer of the self-trials and truth claims (id 1), written by the latest run. */
export const SelfKnowledge = defineEntity({
  name: 'SelfKnowledge',
  tableName: 'self_knowledge',
  properties: {
    id: p.smallint().primary().autoincrement(false),
    run: int8(),
    trials: p.json<unknown>().nullable(),
    truth: p.json<unknown>().nullable(),
    coverage: p.json<unknown>().nullable(),
    watch: p.json<unknown>().nullable(),
    asOf: p.datetime().nullable(),
  },
});

/** Where one verification walk has reached in one mode (frontier, sweep, full). */
export const SelfKnowledgeWalk = defineEntity({
  name: 'SelfKnowledgeWalk',
  tableName: 'self_knowledge_walks',
  properties: {
    walk: p.text().primary(),
    mode: p.text().primary(),
    cursor: p.json<unknown>(),
    checked: int8(),
    lapStartedAt: p.datetime().nullable(),
    lapCompletedAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});

/** A problem a walk found, keyed by where it lies. */
export const SelfKnowledgeProblem = defineEntity({
  name: 'SelfKnowledgeProblem',
  tableName: 'self_knowledge_problems',
  properties: {
    trial: p.text().primary(),
    atKey: p.text().primary(),
    detail: p.text(),
    foundAt: p.datetime(),
  },
});

/** A truth claim's checks in one row: how many, how many held, the latest result. */
export const TruthTally = defineEntity({
  name: 'TruthTally',
  tableName: 'truth_tallies',
  properties: {
    claim: p.text().primary(),
    checks: int8(),
    held: int8(),
    firstCheckedAt: p.datetime(),
    lastCheckedAt: p.datetime(),
    lastNotHeldAt: p.datetime().nullable(),
    lastHeld: p.boolean(),
    lastEvidence: p.text(),
  },
});

/** The truth checks of one UTC day. */
export const TruthDay = defineEntity({
  name: 'TruthDay',
  tableName: 'truth_days',
  properties: {
    date: p.date().primary(),
    checks: int8(),
    held: int8(),
  },
});

/** Replies per UTC hour by replier kind and kind replied to, both sides not held (migration 0062). */
export const CrossHour = defineEntity({
  name: 'CrossHour',
  tableName: 'cross_hours',
  properties: {
    hour: p.datetime().primary(),
    fromKind: p.text().primary(),
    toKind: p.text().primary(),
    replies: int8(),
  },
});

/** Each not-held imprint of a kept reply thread, its root and depth (migration 0063). */
export const ThreadNode = defineEntity({
  name: 'ThreadNode',
  tableName: 'thread_nodes',
  properties: {
    sequence: int8().primary().autoincrement(false),
    root: int8(),
    depth: p.integer(),
  },
});

/** A kept reply thread: how many imprints it holds and its deepest depth (migration 0063). */
export const Thread = defineEntity({
  name: 'Thread',
  tableName: 'threads',
  properties: {
    root: int8().primary().autoincrement(false),
    size: int8(),
    depth: p.integer(),
  },
});

/** An observatory view computed by its job, with when and what it covers (migration 0065). */
export const KeptView = defineEntity({
  name: 'KeptView',
  tableName: 'kept_views',
  properties: {
    name: p.text().primary(),
    asOf: p.datetime(),
    coverage: p.json<unknown>(),
    body: p.json<unknown>(),
  },
});

/** The process computing a kept view, and since when (migration 0065). */
export const KeptViewClaim = defineEntity({
  name: 'KeptViewClaim',
  tableName: 'kept_view_claims',
  properties: {
    name: p.text().primary(),
    claimedAt: p.datetime(),
  },
});

export * from './entities-kept.ts';
