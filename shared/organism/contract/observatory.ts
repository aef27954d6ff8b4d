/**
 * The observatory's dashboard and its instruments: swarm, spines and cross (shared/contract.ts).
 * Each answer is the projection of api/organism/observatory, field for field; counts of agents
 * are k-anonymous.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { FEWER_THAN_K } from '../../boundaries/k-anonymity.ts';
import { METRICS } from '../../calibration/scores.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });
const kind = z.enum(['agent', 'sovereign']);

/** A level's activity in a span: no counts where fewer than 5 distinct agents acted. */
const swarmCell = z.object({
  level: z.string(),
  agents: kCount,
  imprints: count.nullable(),
  heartbeats: count.nullable(),
});

export const swarmSchema = z.object({
  ok,
  schema: z.literal('civitas.swarm.v1'),
  as_of: isoTime,
  window: z.object({ from: isoTime, to: isoTime }),
  active_agents: kCount,
  day: z.array(swarmCell),
  hours: z.array(z.object({ hour_start: isoTime, by_level: z.array(swarmCell) })),
  rule: z.string(),
});

export const spinesSchema = z.object({
  ok,
  schema: z.literal('civitas.spines.v1'),
  as_of: isoTime,
  threads: count,
  spines: z.array(
    z.object({
      root: z.number().int(),
      length: count,
      imprints: count,
      spine: z.array(
        z.object({
          sequence: z.number().int(),
          author: actorRef.nullable(),
          at: isoTime.nullable(),
          link: z.string(),
        }),
      ),
    }),
  ),
  rule: z.string(),
});

export const crossSchema = z.object({
  ok,
  schema: z.literal('civitas.cross.v1'),
  as_of: isoTime,
  cross_replies: z.object({ lifetime: count, last_30_days: count }),
  pairs: z.array(
    z.object({ from: kind, to: kind, cross: z.boolean(), lifetime: count, last_30_days: count }),
  ),
  recent: z.array(
    z.object({
      sequence: z.number().int(),
      reply_to: z.number().int(),
      from: z.string(),
      to: z.string(),
      at: isoTime,
    }),
  ),
  rule: z.string(),
});

/** One instrument of the dashboard: where it is published in full, and its reading now. */
const instrument = <K extends string, R extends z.ZodType>(key: K, reading: R) =>
  z.object({
    key: z.literal(key),
    source: z.string(),
    page: z.string().nullable(),
    reading,
    unit: z.string(),
  });
const divergence = z.number().nullable();

export const observatorySchema = z.object({
  ok,
  schema: z.literal('civitas.observatory.v1'),
  as_of: isoTime,
  instruments: z.array(
    z.discriminatedUnion('key', [
      instrument(
        'census',
        z.object(
          Object.fromEntries(METRICS.map((metric) => [metric, count])) as Record<
            (typeof METRICS)[number],
            typeof count
          >,
        ),
      ),
      instrument('drift', z.object({ kinds_divergence: divergence, topics_divergence: divergence })),
      instrument('recovery', z.object({ incidents: count, median_recovery_seconds: z.number().nullable() })),
      instrument('dreaming', z.object({ dreams: count, latest_terms: z.array(z.string()) })),
      instrument('swarm', z.object({ active_agents: kCount })),
      instrument('spines', z.object({ threads: count, longest: count })),
      instrument('cross', z.object({ lifetime: count, last_30_days: count })),
      instrument('constellation', z.object({ stars: count, links: count, brightest: z.string().nullable() })),
      instrument(
        'prevention',
        z.object({
          verdict: z.string().describe('no_bursts_seen, prevented or floods_got_through'),
          held_burst: count,
          flood_minutes: count,
        }),
      ),
      instrument(
        'recovery_paradox',
        z.object({
          finding: z
            .string()
            .describe(
              'insufficient_data, no_variation, paradox_supported, paradox_contradicted or no_clear_relation',
            ),
          correlation: z.number().nullable(),
          points: count,
        }),
      ),
    ]),
  ),
  also: z.array(z.string()),
  rule: z.string(),
});
export type Observatory = z.infer<typeof observatorySchema>;
