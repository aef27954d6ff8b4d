/**
 * The organism's whole state (GET /api/state) and the organism in one view (GET /api/organism)
 * (shared/contract.ts). Each answer is the projection of api/organism/self/state.ts, field for
 * field: actors as public refs, denials as denial receipts, cohorts k-anonymous, humans and
 * agents two kinds and never summed.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { FEWER_THAN_K } from '../../boundaries/k-anonymity.ts';
import { heldSummarySchema } from '../../record/contract.ts';
import { denialReceiptSchema } from '../../registry/schemas/ledger.ts';
import { metabolismSchema, vitalsSchema } from './vitals.ts';
import { seasonSchema } from './self.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });

/** The Record's window and counts, as /api/state and /api/organism both show them. */
const recordFigures = z.object({
  window: count,
  imprints_lifetime: count,
  imprints_retained: count,
  oldest_retained: z.number().int().nullable(),
  imprints_unattested: count,
  imprints_held: count,
});

const latestAnchor = z
  .object({ date: z.string(), tree_size: count, root_hash: z.string(), sealed_at: isoTime })
  .nullable();

export const stateSchema = z.object({
  ok,
  schema: z.literal('civitas.state.v1'),
  as_of: isoTime,
  population: z.object({ humans: count, agents: count, note: z.string() }),
  agents_by_level: z
    .record(z.string(), count)
    .describe('agents per standing level: arrived, continuous, attested'),
  newest_actors: z.array(actorRef.extend({ since: isoTime })),
  record: recordFigures,
  ledger: z.object({
    receipts: count,
    log_days: count,
    sealed_days: count,
    anchors: count,
    latest_anchor: latestAnchor,
  }),
  quarantine: z.object({
    unattested_count: count,
    newest_unattested: z.array(
      z.object({ sequence: z.number().int(), author: z.string(), reason: z.string(), since: isoTime }),
    ),
    held: heldSummarySchema,
  }),
  denials: z.object({
    total: count,
    by_reason: z.array(z.object({ reason: z.string(), count })),
    recent: z.array(denialReceiptSchema),
  }),
  federated_cohorts: z
    .array(z.object({ peer: z.string(), month: z.string(), humans: kCount, agents: kCount }))
    .describe("the first page (at most 20) of /api/cohorts/federated's cohorts, in its order"),
  federated_cohorts_next: z
    .string()
    .nullable()
    .describe(
      "where the rest of the federated cohorts are read (the list's next link), or null when all are shown",
    ),
});

const vitalsFigures = vitalsSchema.pick({
  requests_per_minute: true,
  error_rate: true,
  latency_p95_ms: true,
  database: true,
});
const seasonFigures = seasonSchema.pick({ season: true, day: true, days: true, figures: true, themes: true });

export const organismSchema = z.object({
  ok,
  schema: z.literal('civitas.organism.v1'),
  as_of: isoTime,
  population: z.object({ humans: count, agents: count }),
  record: recordFigures,
  ledger: z.object({ receipts: count, anchors: count, latest_anchor: latestAnchor }),
  quarantine: z.object({ unattested: count, held: heldSummarySchema }),
  vitals: vitalsFigures,
  metabolism: z.object({
    last_day: metabolismSchema.shape.last_day,
    residence_hours: metabolismSchema.shape.residence_hours,
  }),
  drift: z.object({
    kinds_divergence: z.number().nullable(),
    topics_divergence: z.number().nullable(),
    rising: z.array(z.string()),
  }),
  season: seasonFigures,
  boundaries: z
    .object({
      total: count,
      active: count,
      unbound_count: count,
      all_bound: z.boolean(),
      fully_accounted: z.boolean(),
    })
    .nullable(),
  self_trials: z.object({
    as_of: isoTime.describe('when the verification job kept these trials'),
    all_passed: z.boolean(),
    passed: count,
    failed: count,
    trials: z.array(z.object({ name: z.string(), passed: z.boolean() })),
  }),
  see: z.object({
    state: z.string(),
    vitals: z.string(),
    metabolism: z.string(),
    self_trials: z.string(),
    failures: z.string(),
    promises: z.string(),
    drift: z.string(),
    season: z.string(),
  }),
});
