/**
 * The people operations: roster, censuses, cohorts, resonance, presence, federation and the
 * mirror (shared/contract.ts). Every answer here has passed its boundary projector: public refs
 * and k-anonymous counts only.
 */
import { z } from 'zod';
import { blank, defineContracts, isoTime } from '../contract.ts';
import { FEWER_THAN_K } from '../boundaries/k-anonymity.ts';
import { publicActorParam } from '../actor.ts';
import { listPageLinks, listPageQuery } from '../paging.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
/** A count under 5 reads "fewer than 5" (shared/boundaries/k-anonymity.ts). */
const kCount = z.union([count, z.literal(FEWER_THAN_K)]);
const actorRef = z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() });
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

const rosterList = <T extends z.ZodType>(entry: T) =>
  z.object({ total: count, listed: z.array(entry) }).nullable();

const census = z.object({
  date: z.string(),
  humans: count,
  agents: count,
  imprints_lifetime: count,
  imprints_retained: count,
  receipts: count,
  taken_at: isoTime,
  receipt_id: z.string(),
});

const mirrorBase = { ok, schema: z.literal('civitas.mirror.v1'), as_of: isoTime, found: z.literal(true) };
const mirrorCounts = {
  actor: actorRef,
  addressable: z.literal(true),
  imprints: z.object({ public: count, retained: count, unattested: count }),
  receipts: count,
  resonance: z.object({ window_days: count, score: count }),
};

export const PEOPLE_CONTRACTS = defineContracts({
  'GET /api/citizens': {
    query: z.object({
      kind: z.preprocess(blank, z.enum(['sovereign', 'agent']).optional()),
      limit: z.coerce.number().int().min(1).max(100).default(50),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      after: z.preprocess(
        blank,
        z
          .string()
          .max(200)
          .regex(/^[A-Za-z0-9_-]+$/, 'after is the cursor of a next link')
          .optional()
          .describe('the cursor of a `next` or `previous` link: where each list resumes'),
      ),
    }),
    response: z.object({
      ok,
      schema: z.literal('civitas.citizens.v1'),
      as_of: isoTime,
      page: count,
      limit: count,
      kind: z.enum(['sovereign', 'agent', 'both']),
      humans: rosterList(actorRef),
      agents: rosterList(actorRef.extend({ level: z.string() })),
      next: z.string().nullable(),
      previous: z.string().nullable().describe('the page before this one (by key), or null on the first'),
    }),
  },
  'GET /api/censuses': {
    query: z.object({
      ...listPageQuery(30, 366),
      before: z.preprocess(
        blank,
        z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'before is a date, YYYY-MM-DD')
          .optional()
          .describe('the older form of a next link: the censuses before this day'),
      ),
    }),
    response: z.object({
      ok,
      schema: z.literal('civitas.censuses.v1'),
      as_of: isoTime,
      basis: z.string(),
      window: count,
      censuses: z.array(census),
      ...listPageLinks,
    }),
  },
  'GET /api/cohorts': {
    query: z.object(listPageQuery(60, 240)),
    response: z.object({
      ok,
      schema: z.literal('civitas.cohorts.v1'),
      as_of: isoTime,
      k: count,
      basis: z.string(),
      cohorts: z.array(z.object({ month: z.string(), humans: kCount, agents: kCount })),
      ...listPageLinks,
    }),
  },
  'GET /api/cohorts/federated': {
    response: z.object({
      ok,
      schema: z.literal('civitas.cohorts-federated.v1'),
      as_of: isoTime,
      k: count,
      peers: count,
      basis: z.string(),
      cohorts: z.array(z.object({ peer: z.string(), month: z.string(), humans: kCount, agents: kCount })),
    }),
  },
  'GET /api/resonance': {
    query: z.object(listPageQuery(100, 500)),
    response: z.object({
      ok,
      schema: z.literal('civitas.resonance.v1'),
      basis: z.string(),
      computed_at: isoTime.describe('when the job last computed the ranking (every minute)'),
      window_days: count,
      entries: z
        .array(z.object({ actor: z.string(), score: count }))
        .describe('one page of the ranking: highest score first, refs A to Z within a score'),
      ...listPageLinks,
    }),
  },
  'GET /api/resonance/cohort-amplified': {
    response: z.object({
      ok,
      schema: z.literal('civitas.resonance-cohort-amplified.v1'),
      window_days: count,
      k: count,
      basis: z.string(),
      computed_at: isoTime,
      entries: z.array(z.object({ month: z.string(), factor: z.number(), contributors: kCount })),
    }),
  },
  'GET /api/presence': { query: z.object({}).loose(), response: presenceViewSchema },
  'GET /commons': { response: commonsSchema },
  'GET /api/federation': {
    response: z.object({
      ok,
      schema: z.literal('civitas.federation.v1'),
      as_of: isoTime,
      origin: z.string(),
      accepts_relays: z.boolean(),
      peers: z.array(
        z.object({
          name: z.string(),
          origin: z.string(),
          key: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string() }),
          relays: count,
          last_relay_at: isoTime.nullable(),
        }),
      ),
      relay: z.object({ method: z.literal('POST'), href: z.string(), body: z.string(), jws: z.string() }),
      note: z.string(),
    }),
  },
  'POST /api/federation/feedback-relay': {
    body: z.object({
      jws: z
        .string()
        .trim()
        .min(1, 'jws is required: the compact JWS your peer key signed')
        .max(16_000, 'jws is at most 16000 characters'),
    }),
    response: z.object({
      ok,
      relay_id: z.string(),
      peer: z.string(),
      topic: z.string(),
      receipt_id: z.string(),
    }),
  },
  'GET /api/mirror': {
    query: z.object({ actor: publicActorParam }),
    response: z.union([
      z.object({
        ...mirrorBase,
        ...mirrorCounts,
        standing: z.object({ level: z.string() }),
        status: z.string(),
      }),
      z.object({
        ...mirrorBase,
        ...mirrorCounts,
        standing: z.object({ kind: z.literal('sovereign'), passport: z.string() }),
      }),
      z.object({ ...mirrorBase, actor: actorRef, addressable: z.literal(false), note: z.string() }),
    ]),
  },
});
