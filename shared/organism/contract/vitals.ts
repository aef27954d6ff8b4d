/**
 * The organism's vitals (shared/contract.ts): request and error rates, latency, database health
 * and the wallet block (equity_projection: no holder). The answer is api/organism/vitals's
 * projection, field for field.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { equitySchema } from '../../treasury/contract.ts';
import { FAILURE_LANES } from '../../boundaries/projectors/failures.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const ms = z.number().nullable();
const dbStatus = z.enum(['ok', 'degraded', 'down']);

/** Plain figures of one window: counts and durations only. */
export const vitalsWindowSchema = z.object({
  minutes: count,
  requests: count,
  requests_per_minute: z.number(),
  server_errors: count,
  client_errors: count,
  error_rate: z.number(),
  latency_ms: z.object({ p50: ms, p95: ms, p99: ms, mean: ms, max: ms }),
  processes_reporting: count,
});

export const vitalsSchema = z.object({
  ok,
  schema: z.literal('civitas.vitals.v1'),
  as_of: isoTime,
  requests_per_minute: z.number(),
  error_rate: z.number(),
  latency_p95_ms: ms,
  database: dbStatus,
  wallet: equitySchema.extend({ available: z.literal(true) }),
  last_hour: vitalsWindowSchema,
  last_day: vitalsWindowSchema,
  database_health: z.object({
    status: dbStatus,
    ping_ms: ms,
    engine: z.enum(['postgresql', 'embedded']),
    migrations_applied: count.nullable(),
  }),
  basis: z.string(),
});

const flow = { intake: count, evictions: count };
const slot = z.object({ start: isoTime, ...flow });

/** Metabolism: what enters the Record and which bodies leave its window. */
export const metabolismSchema = z.object({
  ok,
  schema: z.literal('civitas.metabolism.v1'),
  as_of: isoTime,
  window: count,
  lifetime: z.object({ ...flow, bodies_without_text: count, retained: count }),
  last_hour: z.object(flow),
  last_day: z.object({ ...flow, intake_per_hour: z.number() }),
  last_30_days: z.object(flow),
  residence_hours: z.number().nullable(),
  hourly: z.array(slot),
  daily: z.array(slot),
  rule: z.string(),
});

/** Failures per lane and UTC day: the lane, the kind and the time only. */
export const failuresSchema = z.object({
  ok,
  schema: z.literal('civitas.failures.v1'),
  as_of: isoTime,
  days: count,
  lanes: z.array(z.enum(FAILURE_LANES)).readonly(),
  total: count,
  today: count,
  by_lane: z.array(
    z.object({ lane: z.string(), reason: z.string(), hint: z.string(), count, last_at: isoTime }),
  ),
  by_day: z.array(z.object({ date: z.string(), lane: z.string(), reason: z.string(), count })),
  rule: z.string(),
});

/** failure_projection: the kind and the lane of a failure, never its words. */
const failureView = z.object({
  ok: z.literal(false),
  reason: z.enum(['provider_unavailable', 'internal_error']),
  hint: z.string(),
  lane: z.enum(FAILURE_LANES),
});

/** The background jobs: when each last ran, how it ended, when it is due. */
export const dispatchSchema = z.object({
  ok,
  schema: z.literal('civitas.dispatch.v1'),
  as_of: isoTime,
  jobs: z.array(
    z.object({
      name: z.string(),
      every_seconds: z.number(),
      last_run: z
        .object({
          started_at: isoTime,
          finished_at: isoTime,
          outcome: z.enum(['ok', 'failed']),
          failure: failureView.optional(),
        })
        .nullable(),
      last_failed_at: isoTime.nullable(),
      tries: count,
      failures: count,
      next_due_at: isoTime.nullable(),
      overdue: z.boolean(),
    }),
  ),
  notices: z.object({ available: z.literal(false), reason: z.string(), lanes: z.array(z.string()) }),
  rule: z.string(),
});

/** One figure of a period against the period before; `change` is relative (null from a zero before). */
const changeSchema = z.object({
  period: z.enum(['day', 'week']),
  metric: z.enum(['requests', 'error_rate', 'latency_p95_ms']),
  before: z.number().nullable(),
  after: z.number().nullable(),
  change: z.number().nullable(),
  direction: z.enum(['up', 'down', 'flat', 'unmeasured']),
  notable: z.boolean(),
});
const periodWindows = z.object({ current: vitalsWindowSchema, previous: vitalsWindowSchema });

export const vitalsChangesSchema = z.object({
  ok,
  schema: z.literal('civitas.vitals-changes.v1'),
  as_of: isoTime,
  threshold: z.number(),
  changes: z.array(changeSchema),
  notable: z.array(changeSchema),
  windows: z.object({ day: periodWindows, week: periodWindows }),
  rule: z.string(),
});

/** An objective and whether it is kept now: `kept: null` without measurements. */
export const promisesSchema = z.object({
  ok,
  schema: z.literal('civitas.promises.v1'),
  as_of: isoTime,
  self_trials_as_of: isoTime.describe(
    'when the verification job kept the self-trials the last five promises read',
  ),
  kept: count,
  broken: count,
  unmeasured: count,
  promises: z.array(
    z.object({
      name: z.string(),
      objective: z.string(),
      target: z.union([z.number(), z.boolean()]),
      measured: z.union([z.number(), z.boolean()]).nullable(),
      kept: z.boolean().nullable(),
      basis: z.string(),
      window: z.string(),
      source: z.string(),
    }),
  ),
});

const lane = z.enum(FAILURE_LANES);
const seconds = count.nullable();

/** Incidents (a lane's failures within one UTC minute) and how long each took to recover. */
export const recoverySchema = z.object({
  ok,
  schema: z.literal('civitas.recovery.v1'),
  as_of: isoTime,
  days: count,
  incidents: count,
  recovered: count,
  unrecovered: count,
  median_recovery_seconds: seconds,
  by_lane: z.array(
    z.object({
      lane: z.string(),
      reason: z.string(),
      incidents: count,
      recovered: count,
      unrecovered: count,
      last_incident_at: isoTime,
      median_recovery_seconds: seconds,
      max_recovery_seconds: seconds,
    }),
  ),
  recent: z.array(
    z.object({
      lane,
      reason: failureView.shape.reason,
      minute: isoTime,
      failures: count,
      recovered_at: isoTime.nullable(),
      recovery_seconds: seconds,
    }),
  ),
  rule: z.string(),
});
