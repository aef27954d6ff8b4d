/**
 * The people operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { publicActorParam } from '../actor.ts';
import { blank, isoTime } from '../contract.ts';
import { listPageQuery, listPageLinks } from '../paging.ts';
import { operations } from '../registry/operation.ts';
import {
  ok,
  count,
  rosterList,
  actorRef,
  census,
  kCount,
  presenceViewSchema,
  commonsSchema,
  mirrorBase,
  mirrorCounts,
} from './contract.ts';

const { api, asset, mutation, page } = operations('people');

/** People: roster, censuses, cohorts, resonance, presence and federation. */
export const PEOPLE_OPERATIONS = [
  api(
    '/api/citizens',
    'Public roster: sovereigns by tag and visible callsign, agents by handle, as two kinds',
    {
      GET: {
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
    },
  ),
  page('/citizens', 'The public roster of sovereigns and agents', {
    GET: { policy: { cache: 'revalidate' } },
  }),
  api('/api/censuses', 'Daily census snapshots: humans and agents as distinct kinds', {
    GET: {
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
  }),
  page('/censuses', 'Census history', { GET: { policy: { cache: 'revalidate' } } }),
  api('/api/cohorts', 'Cohorts by join month, k-anonymous (groups under 5 shown as fewer than 5)', {
    GET: {
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
  }),
  api('/api/cohorts/federated', 'Cohorts across federation peers, k-anonymous, without origin:node keys', {
    GET: {
      query: z.object(listPageQuery(60, 240)),
      response: z.object({
        ok,
        schema: z.literal('civitas.cohorts-federated.v1'),
        as_of: isoTime,
        k: count,
        peers: count,
        basis: z.string(),
        cohorts: z
          .array(z.object({ peer: z.string(), month: z.string(), humans: kCount, agents: kCount }))
          .describe('one page: by peer A to Z, then month, oldest first'),
        ...listPageLinks,
      }),
    },
  }),
  api(
    '/api/resonance',
    'Resonance: which imprints and themes were answered or seconded, without actor-keyed keys',
    {
      GET: {
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
    },
  ),
  api(
    '/api/resonance/cohort-amplified',
    'Resonance amplified by cohort, without raw node keys or cohort labels',
    {
      GET: {
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
    },
  ),
  api(
    '/api/presence',
    'Presence: humans and agents active in the last 15 minutes, as two kinds, plus current confluences',
    { GET: { query: z.object({}).loose(), response: presenceViewSchema, policy: { cache: 'public' } } },
  ),
  page('/commons', 'The commons: who is here (k-anonymous presence) and the current confluences', {
    GET: { response: commonsSchema, policy: { cache: 'revalidate', page: { anonymous: 'public-30s' } } },
  }),
  api('/api/federation', 'Federation peers and their last signed exchange', {
    GET: {
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
  }),
  mutation('/api/federation/feedback-relay', 'A federation peer relays signed feedback', {
    refuses: { POST: ['conflict'] },
    POST: {
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
  }),
  page('/federation', 'Federation: the peers civitas exchanges with', {
    GET: { policy: { cache: 'revalidate' } },
  }),
  api('/api/mirror', 'Mirror: what civitas publicly shows about a given public actor', {
    publicActor: 'required',
    GET: {
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
  }),
  asset('/confluence/card.svg', 'Card of the current confluences (no convener callsign roots)', {
    GET: { policy: { cache: 'public-1m' } },
  }),
];
