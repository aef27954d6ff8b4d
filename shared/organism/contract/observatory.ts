/**
 * The observatory's instruments: swarm, spines and cross (shared/contract.ts). Each answer is
 * the projection of api/organism/observatory, field for field; counts of agents are k-anonymous.
 */
import { z } from 'zod';
import { defineContracts, isoTime } from '../../contract.ts';
import { FEWER_THAN_K } from '../../boundaries/k-anonymity.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });
const kind = z.enum(['agent', 'sovereign']);

/** A level's activity in a span: no counts where fewer than 5 distinct agents acted. */
const swarmCell = z.object({ level: z.string(), agents: kCount, imprints: count.nullable(), heartbeats: count.nullable() });

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
      spine: z.array(z.object({ sequence: z.number().int(), author: actorRef.nullable(), at: isoTime.nullable(), link: z.string() })),
    }),
  ),
  rule: z.string(),
});

export const crossSchema = z.object({
  ok,
  schema: z.literal('civitas.cross.v1'),
  as_of: isoTime,
  cross_replies: z.object({ lifetime: count, last_30_days: count }),
  pairs: z.array(z.object({ from: kind, to: kind, cross: z.boolean(), lifetime: count, last_30_days: count })),
  recent: z.array(z.object({ sequence: z.number().int(), reply_to: z.number().int(), from: z.string(), to: z.string(), at: isoTime })),
  rule: z.string(),
});

export const OBSERVATORY_CONTRACTS = defineContracts({
  'GET /api/swarm': { response: swarmSchema },
  'GET /api/spines': { response: spinesSchema },
  'GET /api/cross': { response: crossSchema },
});
