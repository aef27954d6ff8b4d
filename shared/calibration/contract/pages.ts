/**
 * The calibration pages with a JSON twin (/calibration, /prophecy, /almanac): what each answers to
 * `Accept: application/json`, field for field from the projections in api/calibration/views.ts.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { COMPARATORS, METRICS } from '../scores.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });
/** Who made a prophecy or a pact: a sovereign's public face, or the service itself. */
export const forecasterSchema = z.union([
  actorRef,
  z.object({ kind: z.literal('service'), ref: z.literal('service:civitas'), display: z.literal('civitas') }),
]);
const links = z.object({ card: z.string(), answered: z.string().nullable() });

/** One prophecy (projectProphecy in api/calibration/prophecies.ts). */
export const prophecyViewSchema = z.object({
  id: z.string(),
  forecaster: forecasterSchema,
  metric: z.enum(METRICS),
  metric_meaning: z.string(),
  comparator: z.enum(COMPARATORS),
  threshold: z.number(),
  statement: z.string(),
  probability: z.number(),
  made_at: isoTime,
  due_at: isoTime,
  season: z.string().nullable(),
  basis: z.string().nullable(),
  status: z.enum(['open', 'resolved']),
  resolved_at: isoTime.nullable(),
  observed: z.number().nullable(),
  outcome: z.boolean().nullable(),
  receipt_id: z.string(),
  resolution_receipt_id: z.string().nullable(),
  links,
});

/** One pact (projectPact in api/calibration/pacts.ts). */
export const pactViewSchema = z.object({
  id: z.string(),
  author: forecasterSchema,
  title: z.string(),
  detail: z.string(),
  stake: count,
  made_at: isoTime,
  due_at: isoTime,
  status: z.enum(['open', 'awaiting_author', 'kept', 'broken']),
  resolved_at: isoTime.nullable(),
  answered_by: z.enum(['author', 'steward', 'lapse']).nullable(),
  resolution_receipt_id: z.string().nullable(),
  lapses_at: isoTime.nullable(),
  stakes: z.object({
    kept: count,
    broken: count,
    stakers: count,
    settled: z.boolean(),
    paid_out: count.nullable(),
  }),
  receipt_id: z.string(),
  links,
});

const metrics = z.array(z.object({ metric: z.enum(METRICS), meaning: z.string() }));

export const prophecyPageSchema = z.object({
  ok,
  schema: z.literal('civitas.prophecies.v1'),
  as_of: isoTime,
  scope: z.string(),
  metrics,
  comparators: z.array(z.enum(COMPARATORS)).readonly(),
  open: z.array(prophecyViewSchema),
  resolved: z.array(prophecyViewSchema),
});

export const almanacSchema = z.object({
  ok,
  schema: z.literal('civitas.almanac.v1'),
  as_of: isoTime,
  season: z.object({ name: z.string(), starts: isoTime, ends: isoTime }),
  scope: z.string(),
  due: z.array(
    z.object({
      kind: z.enum(['prophecy', 'pact']),
      id: z.string(),
      title: z.string(),
      due_at: isoTime,
      made_at: isoTime.describe(
        'when it was made: the feed entry and the calendar event are stamped with it',
      ),
      by: forecasterSchema,
      href: z.string(),
    }),
  ),
  prophecies: z.object({ open: z.array(prophecyViewSchema), resolved: z.array(prophecyViewSchema) }),
  pacts: z.object({ open: z.array(pactViewSchema), answered: z.array(pactViewSchema) }),
  feeds: z.object({ ics: z.string(), atom: z.string(), streaks: z.string() }),
  pact_resolution: z.string(),
});
