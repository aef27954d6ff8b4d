/**
 * The experiments the service runs on itself (shared/contract.ts): the prevention experiment and
 * the recovery-paradox expedition. Each answer is the projection of api/organism/experiments,
 * field for field; a run keeps the findings of its moment, so a stored run's findings have the
 * study's findings schema.
 */
import { z } from 'zod';
import { isoTime, optional } from '../../contract.ts';

export const ok = z.literal(true);
const count = z.number().int().min(0);
const day = z.string().describe('UTC day, YYYY-MM-DD');

export const PREVENTION_VERDICTS = ['no_bursts_seen', 'prevented', 'floods_got_through'] as const;
export const PARADOX_FINDINGS = [
  'insufficient_data',
  'no_variation',
  'paradox_supported',
  'paradox_contradicted',
  'no_clear_relation',
] as const;

/** The prevention experiment's figures over its 30 UTC days. */
export const preventionFindingsSchema = z.object({
  from: isoTime,
  to: isoTime,
  accepted: count,
  held_by_rule: z.array(z.object({ rule: z.string(), reason: z.string(), held: count })),
  held_burst: count,
  flood_minutes: count,
  verdict: z.enum(PREVENTION_VERDICTS),
  by_day: z.array(
    z.object({ date: day, accepted: count, held_burst: count, held_other: count, flood_minutes: count }),
  ),
});

/** The expedition's figures: (lane, day) points with a recovered incident, and their correlation. */
export const paradoxFindingsSchema = z.object({
  from: isoTime,
  to: isoTime,
  incidents: count,
  points_needed: count,
  points: z.array(z.object({ lane: z.string(), day, incidents: count, median_recovery_seconds: count })),
  correlation: z.number().min(-1).max(1).nullable(),
  finding: z.enum(PARADOX_FINDINGS),
});

/** One stored run of a study: the findings of that moment (the runner is neither stored nor shown). */
function runSchema<F extends z.ZodType>(findings: F) {
  return z.object({
    id: z.string(),
    ran_at: isoTime,
    variation: z.string().nullable(),
    findings,
    receipt_id: z.string(),
    receipt: z.string(),
  });
}
function runsSchema<F extends z.ZodType>(findings: F) {
  return z.object({ total: count, latest: z.array(runSchema(findings)) });
}

export const preventionRunSchema = runSchema(preventionFindingsSchema);
export const paradoxRunSchema = runSchema(paradoxFindingsSchema);

export const preventionSchema = z.object({
  ok,
  schema: z.literal('civitas.experiment.prevention.v1'),
  as_of: isoTime,
  question: z.string(),
  rule: z.object({ name: z.literal('burst'), limit: count, window_seconds: z.number() }),
  measure: z.string(),
  findings: preventionFindingsSchema,
  runs: runsSchema(preventionFindingsSchema),
  run: z.object({
    method: z.literal('POST'),
    href: z.string(),
    needs: z.string(),
    fields: z.object({ variation: z.string() }),
  }),
});

export const paradoxSchema = z.object({
  ok,
  schema: z.literal('civitas.expedition.recovery-paradox.v1'),
  as_of: isoTime,
  question: z.string(),
  method: z.string(),
  findings: paradoxFindingsSchema,
  runs: runsSchema(paradoxFindingsSchema),
  run: z.object({ method: z.literal('POST'), href: z.string(), needs: z.string() }),
});

/** A run of the prevention experiment (the JSON door and the /experiments form). Unknown fields are refused. */
export const preventionRunBody = z
  .object({
    variation: optional(z.string().trim().max(500, 'variation is at most 500 characters')),
    return_to: z.string().max(2_000).optional(),
  })
  .strict();

/** A run of the recovery-paradox expedition: nothing to send but where a form returns. */
export const expeditionRunBody = z.object({ return_to: z.string().max(2_000).optional() }).strict();
