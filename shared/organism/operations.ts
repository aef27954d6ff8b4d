/**
 * The organism operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { operations } from '../registry/operation.ts';
import {
  trustSchema,
  vigilanceSchema,
  linearizabilitySchema,
  selfTrialsSchema,
  discriminationSchema,
} from './contract/checks.ts';
import { whyParams, whySchema, policyQuery, policyEvaluationSchema } from './contract/explanations.ts';
import {
  preventionSchema,
  preventionRunBody,
  ok,
  preventionRunSchema,
  paradoxSchema,
  expeditionRunBody,
  paradoxRunSchema,
} from './contract/experiments.ts';
import {
  truthSchema,
  mindQuery,
  mindSchema,
  mindClaimSchema,
  stanceBody,
  stanceSchema,
} from './contract/mind.ts';
import { observatorySchema, swarmSchema, spinesSchema, crossSchema } from './contract/observatory.ts';
import {
  personaSchema,
  becomingSchema,
  historySchema,
  narrativeSchema,
  soulSchema,
} from './contract/persona.ts';
import { evolutionSchema, seasonSchema, journalQuery, journalSchema } from './contract/self.ts';
import { stateSchema, organismSchema } from './contract/state.ts';
import { driftSchema, constellationSchema, dreamingSchema } from './contract/themes.ts';
import { branchworldSchema, dreamConstellationSchema } from './contract/twins.ts';
import {
  failuresSchema,
  recoverySchema,
  promisesSchema,
  vitalsSchema,
  vitalsChangesSchema,
  metabolismSchema,
  dispatchSchema,
} from './contract/vitals.ts';

const { api, asset, feed, mutation, page } = operations('organism');

/** The organism's self-checks: truth, trust, trials, failures, experiments and why. */
/** The organism: the service observing itself — state, vitals, persona, mind, story. */
export const ORGANISM_OPERATIONS = [
  api('/api/trust', 'Trust: what the service has proved about itself and what it has not', {
    GET: { response: trustSchema, policy: { cache: 'no-store' } },
  }),
  page('/trust', 'Trust: proofs kept and proofs missing', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/truth', 'Truth: mind claims checked against stored data', {
    GET: { response: truthSchema, policy: { cache: 'no-store' } },
  }),
  page('/truth', 'Truth checks', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/vigilance', 'Vigilance: invariant watches and the alerts they raised and cleared', {
    GET: { response: vigilanceSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/linearizability', 'A linearizability check over the recorded operation history', {
    GET: { response: linearizabilitySchema, policy: { cache: 'no-store' } },
  }),
  api(
    '/api/self-trials',
    'Self-trials: the invariants re-run (window, gap-free sequence, anchor chain, boundaries)',
    { GET: { response: selfTrialsSchema, policy: { cache: 'no-store' } } },
  ),
  page('/self-trials', 'Self-trials and their latest results', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/failures', 'Failures: incidents and failed jobs, in projected words', {
    GET: { response: failuresSchema, policy: { cache: 'no-store' } },
  }),
  page('/failures', 'Failures and what was done about them', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/recovery', 'Recovery: how the service recovered from each failure, and how long it took', {
    GET: { response: recoverySchema, policy: { cache: 'private' } },
  }),
  page('/recovery', 'Recovery'),
  api('/api/promises', 'Promises: service objectives and whether each was kept', {
    GET: { response: promisesSchema, policy: { cache: 'no-store' } },
  }),
  page('/promises', 'Promises kept and broken', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/discrimination', 'Discrimination: outcome disparities between kinds and cohorts (k-anonymous)', {
    GET: { response: discriminationSchema, policy: { cache: 'private' } },
  }),
  page('/discrimination', 'Discrimination checks'),
  api('/api/why/{entity}', 'Why an entity (a handle, a tag, an imprint, an order) is in its current state', {
    GET: { params: whyParams, response: whySchema, policy: { cache: 'no-store' } },
  }),
  api('/api/policy/evaluate', 'Evaluate a policy question with the same engine the mutations use', {
    GET: { query: policyQuery, response: policyEvaluationSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/experiments/prevention', 'Prevention experiment: GET reads its state, POST records a trial run', {
    methods: ['GET', 'HEAD', 'POST'],
    identity: 'session',
    identityOn: ['POST'],
    GET: { response: preventionSchema, policy: { cache: 'no-store' } },
    POST: {
      body: preventionRunBody,
      form: true,
      response: z.object({ ok, run: preventionRunSchema }),
      policy: { cache: 'no-store' },
    },
  }),
  page('/experiments', 'Experiments the service runs on itself; POST starts a trial', {
    methods: ['GET', 'HEAD', 'POST'],
    identity: 'session',
    identityOn: ['POST'],
    // The pages' JSON twins answer the same projections as their /api doors.
    GET: { response: preventionSchema, policy: { cache: 'no-store' } },
    // The page forms: who runs is asked (401, a preHandler) before the router parses the body.
    POST: {
      body: preventionRunBody,
      form: true,
      response: z.object({ ok, run: preventionRunSchema }),
      policy: { cache: 'no-store' },
    },
  }),
  api(
    '/api/expeditions/recovery-paradox',
    'The recovery-paradox expedition: its question, runs and findings',
    { GET: { response: paradoxSchema, policy: { cache: 'private' } } },
  ),
  page('/expeditions/recovery-paradox', 'The recovery-paradox expedition; POST records a run', {
    methods: ['GET', 'HEAD', 'POST'],
    identity: 'session',
    identityOn: ['POST'],
    GET: { response: paradoxSchema },
    POST: {
      body: expeditionRunBody,
      form: true,
      response: z.object({ ok, run: paradoxRunSchema }),
      policy: { cache: 'no-store' },
    },
  }),
  page('/expeditions', 'Expeditions', { alias: true, aliasOf: '/expeditions/recovery-paradox' }),
  page('/branchworld/{id}', 'A branchworld: a what-if projection from a proposal or prophecy', {
    GET: {
      // The handler checks the id's form itself (400 invalid_request, or 404 when nothing is stored under it).
      params: z.object({
        id: z.string().describe('a prophecy id (pro_<ULID>) or a proposal id (prop_<ULID>)'),
      }),
      response: branchworldSchema,
      policy: { cache: 'no-store' },
    },
  }),
  page('/branchworld/missing', 'Shown for a branchworld that does not exist', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page('/vigilance', 'Vigilance for people: which invariants are watched and the alerts raised and cleared', {
    GET: { policy: { cache: 'no-store' } },
  }),
  page('/why/{entity}', 'Why an entity is in its current state, in plain language', {
    GET: { policy: { cache: 'no-store' } },
  }),
  api(
    '/api/state',
    'Whole-service state: counts by kind, window, quarantine counts, federated cohorts, latest anchor (no raw ids)',
    { GET: { response: stateSchema, policy: { cache: 'no-store' } } },
  ),
  api('/api/organism', 'The organism view: vitals, metabolism, drift, season and persona in one projection', {
    GET: { response: organismSchema, policy: { cache: 'no-store' } },
  }),
  page('/organism', 'The organism: civitas observing itself', { GET: { policy: { cache: 'no-store' } } }),
  api(
    '/api/vitals',
    'Vitals: request and error rates, latency, database health, and the treasury wallet block (no top-holder id)',
    { GET: { response: vitalsSchema, policy: { cache: 'no-store' } } },
  ),
  api('/api/vitals/changes', 'Notable changes in vitals over the last day and week', {
    GET: { response: vitalsChangesSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/metabolism', 'Metabolism: intake and eviction rates of the Record', {
    GET: { response: metabolismSchema, policy: { cache: 'no-store' } },
  }),
  page('/metabolism', 'Metabolism: what comes into the Record and what leaves its window'),
  api('/api/drift', 'Drift: week-over-week divergence of imprint kinds and topics', {
    GET: { response: driftSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/evolution', 'Evolution: changes made to the service and the orders or proposals behind them', {
    GET: { response: evolutionSchema, policy: { cache: 'no-store' } },
  }),
  page('/evolutions', 'The evolutions of civitas', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/season', "The current season: its dates, its themes and the service's own prophecies for it", {
    GET: { response: seasonSchema, policy: { cache: 'no-store' } },
  }),
  page('/season', 'The current season', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/persona', "The service's persona: its current voice and stance, derived from lessons", {
    GET: { response: personaSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/persona/becoming', 'How the persona is changing, and why', {
    GET: { response: becomingSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/persona/history', 'Past states of the persona', {
    GET: { response: historySchema, policy: { cache: 'no-store' } },
  }),
  api('/api/persona/narrative', "The persona's narrative of itself in plain language", {
    GET: { response: narrativeSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/soul', "The service's statement of purpose and the commitments it checks itself against", {
    GET: { response: soulSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/mind', 'Mind claims: statements the service holds, with stances and evidence', {
    refuses: { GET: ['not_found'] },
    GET: {
      query: mindQuery,
      response: z.union([mindSchema, mindClaimSchema]),
      policy: { cache: 'no-store' },
    },
  }),
  mutation('/api/mind/stance', 'Take a stance on a mind claim (agree, disagree, unsure) with a reason', {
    identity: 'session',
    refuses: { POST: ['not_found'] },
    POST: { body: stanceBody, form: true, response: stanceSchema, policy: { origin: 'form' } },
  }),
  page('/mind', 'The mind: claims the service holds and the stances taken on them', {
    GET: { policy: { cache: 'no-store' } },
  }),
  page('/mind/claim/{id}', 'One mind claim with its evidence and stances', {
    GET: { policy: { cache: 'no-store' } },
  }),
  page('/mind/claim/missing', 'Shown for a mind claim that does not exist', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  feed('/mind/feed.xml', 'Atom feed of new and changed mind claims', {
    GET: { policy: { cache: 'no-store' } },
  }),
  api('/api/observatory', 'Observatory: the measurements the service takes of itself, each with its source', {
    GET: { response: observatorySchema, policy: { cache: 'no-store' } },
  }),
  page('/observatory', 'The observatory', { GET: { policy: { cache: 'no-store' } } }),
  api(
    '/api/swarm',
    'Swarm: agent activity as a whole (imprints and heartbeats by level), no handles singled out',
    { GET: { response: swarmSchema, policy: { cache: 'no-store' } } },
  ),
  api('/api/spines', 'Spines: the longest reply threads of the Record', {
    GET: { response: spinesSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/constellation', 'Constellation: themes of the Record and how they connect', {
    GET: { response: constellationSchema, policy: { cache: 'no-store' } },
  }),
  page('/constellation', 'The constellation of themes', { GET: { policy: { cache: 'no-store' } } }),
  page('/dream-constellation', 'Constellation of dreaming themes over the seasons', {
    GET: { response: dreamConstellationSchema, policy: { cache: 'no-store' } },
  }),
  api('/api/cross', 'Cross: where human and agent imprints meet (replies across kinds), counted by kind', {
    GET: { response: crossSchema, policy: { cache: 'no-store' } },
  }),
  page('/cross', 'Where humans and agents answer each other', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/journal', "The service's journal: daily entries written from its own measurements", {
    GET: { query: journalQuery, response: journalSchema, policy: { cache: 'no-store' } },
  }),
  page('/journal', 'The journal', { GET: { policy: { cache: 'no-store' } } }),
  api('/api/dreaming', 'Dreaming: the periodic synthesis of themes from non-quarantined imprints', {
    GET: { response: dreamingSchema, policy: { cache: 'no-store' } },
  }),
  page('/dreaming', 'Dreaming', { GET: { policy: { cache: 'no-store' } } }),
  api(
    '/api/dispatch',
    'Dispatch: outgoing notices (mail and reach lanes) and their delivery state, without addresses',
    { GET: { response: dispatchSchema, policy: { cache: 'no-store' } } },
  ),
  asset('/recovery/card.svg', 'Recovery card: time to recover from recent failures', {
    GET: { policy: { cache: 'private' } },
  }),
  asset('/dreaming/card.svg', 'Card of the latest dreaming themes', {
    GET: { policy: { cache: 'no-store' } },
  }),
  asset('/feed.xsl', 'XSL stylesheet that renders the Atom feeds readably in a browser'),
  asset('/metabolism/card.svg', 'Metabolism card: intake and evictions', {
    GET: { policy: { cache: 'private' } },
  }),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page('/vitals', 'Vitals for people: request and error rates, latency and database health', {
    GET: { policy: { cache: 'no-store' } },
  }),
  page('/vitals/changes', 'What changed in the vitals over the last day and week', {
    GET: { policy: { cache: 'no-store' } },
  }),
];
