/**
 * The people operations: roster, censuses, cohorts, resonance, presence, federation and the
 * mirror (shared/contract.ts). Every answer here has passed its boundary projector: public refs
 * and k-anonymous counts only.
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';

export const ok = z.literal(true);
export const count = z.number().int().min(0);
/** A count under 5 reads "fewer than 5" (shared/boundaries/k-anonymity.ts). */
export const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
export const actorRef = z.object({
  kind: z.enum(['sovereign', 'agent']),
  ref: z.string(),
  display: z.string(),
});
export const confluenceViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  convener: z.string(),
  starts_at: isoTime,
  ends_at: isoTime.nullable(),
  /** Who joined besides the convener, by kind: humans and agents are never added into one number. */
  participants: z.object({ humans: kCount, agents: kCount }),
});

/** The presence census (GET /api/presence, MCP civitas_presence). */
export const presenceViewSchema = z.object({
  ok,
  schema: z.literal('civitas.presence.v1'),
  window_minutes: count,
  as_of: isoTime,
  humans: kCount,
  agents: kCount,
  confluences: z.array(confluenceViewSchema),
});

/** The commons (/commons asked for JSON, MCP civitas_commons): groups here now, unlisted members behind a k-anonymous count. */
export const commonsSchema = z.object({
  ok,
  schema: z.literal('civitas.commons.v1'),
  as_of: isoTime,
  window_minutes: count,
  k: count,
  basis: z.string(),
  groups: z.array(z.object({ label: z.string(), listed: z.array(z.string()), others: kCount })),
  confluences: z.array(confluenceViewSchema),
});

export const rosterList = <T extends z.ZodType>(entry: T) =>
  z.object({ total: count, listed: z.array(entry) }).nullable();

export const census = z.object({
  date: z.string(),
  humans: count,
  agents: count,
  imprints_lifetime: count,
  imprints_retained: count,
  receipts: count,
  taken_at: isoTime,
  receipt_id: z.string(),
});

export const mirrorBase = {
  ok,
  schema: z.literal('civitas.mirror.v1'),
  as_of: isoTime,
  found: z.literal(true),
};
export const mirrorCounts = {
  actor: actorRef,
  addressable: z.literal(true),
  imprints: z.object({ public: count, retained: count, unattested: count }),
  receipts: count,
  resonance: z.object({ window_days: count, score: count }),
};
