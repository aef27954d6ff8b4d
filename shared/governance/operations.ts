/**
 * The governance operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { operations } from '../registry/operation.ts';
import {
  constitutionSchema,
  proposeBody,
  proposalResult,
  signBody,
  ratifyResult,
  axiomsSchema,
  abstentionsQuery,
  abstentionsSchema,
} from './contract.ts';
import {
  codexQuery,
  codexSchema,
  reviewBody,
  pledgeResult,
  pledgeBody,
  backBody,
} from './contract/pledges.ts';
import {
  courtSignBody,
  signResult,
  caseResult,
  precedentParams,
  precedentSchema,
  verdictsQuery,
  verdictsSchema,
  dissentQuery,
  dissentSchema,
} from './contract/court.ts';
import {
  lineageSchema,
  ceremonySchema,
  provenanceIndexSchema,
  provenanceClaimSchema,
} from './contract/pages.ts';

const { api, feed, mutation, page } = operations('governance');

/** Governance: constitution, axioms, pledges, courts and verdicts. */
export const GOVERNANCE_OPERATIONS = [
  api(
    '/api/constitution',
    'The constitution: ratified articles, open proposals with cosigns and ratifications',
    // shared_cache_audience: the projection says what this viewer may do
    { GET: { response: constitutionSchema, policy: { cache: 'private' } } },
  ),
  mutation('/api/constitution/propose', 'Propose an amendment to the constitution', {
    scope: 'governance:write',
    refuses: { POST: ['not_found'] },
    POST: { body: proposeBody, form: true, response: proposalResult, policy: { origin: 'form' } },
  }),
  mutation('/api/constitution/cosign', 'Cosign a proposal (3 cosigns open it to ratification)', {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: { body: signBody, form: true, response: proposalResult, policy: { origin: 'form' } },
  }),
  mutation(
    '/api/constitution/ratify',
    'Ratify a proposal, carrying a human-uniqueness receipt from the external authority',
    {
      externalAuthority: 'idp-receipt',
      identity: 'session',
      authorityScope: 'governance:write',
      refuses: { POST: ['conflict', 'not_found'] },
      POST: { body: signBody, form: true, response: ratifyResult, policy: { origin: 'form' } },
    },
  ),
  page('/constitution', 'The constitution: articles, proposals in progress and their history', {
    GET: { response: constitutionSchema },
  }),
  api('/api/axioms', 'The fixed founding articles', {
    GET: { response: axiomsSchema, policy: { cache: 'public-5m' } },
  }),
  page('/axioms', 'The founding axioms of civitas', { GET: { policy: { cache: 'revalidate' } } }),
  page(
    '/lineage',
    'Lineage of the constitution: each article back to its proposal, cosigns and ratification',
    { GET: { response: lineageSchema, policy: { cache: 'public-1m' } } },
  ),
  page(
    '/ceremony',
    'The identity ceremony: how a person crosses, signs in with the provider and gains governance standing',
    { GET: { response: ceremonySchema } },
  ),
  page('/provenance', 'Provenance of claims the service makes: where each figure comes from', {
    GET: { response: provenanceIndexSchema, policy: { cache: 'public-1m' } },
  }),
  page('/provenance/{claim}', 'Provenance of one claim: its data source, computation and receipts', {
    GET: {
      // The handler reads the claim's form itself: 400 invalid_request when it names no axiom, article or proposal id, 404 when unknown.
      params: z.object({
        claim: z
          .string()
          .max(200)
          .describe('an article id (article-<n>), a proposal id (prop_…) or an axiom id (axiom-<n>)'),
      }),
      response: provenanceClaimSchema,
      policy: { cache: 'public-1m' },
    },
  }),
  api('/api/codex/pledges', 'The codex of public pledges and their review state', {
    GET: { query: codexQuery, response: codexSchema, policy: { cache: 'public-1m' } },
  }),
  mutation('/api/codex/pledges/review', 'Review a pledge, carrying a receipt from the external authority', {
    externalAuthority: 'idp-receipt',
    identity: 'session',
    authorityScope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: { body: reviewBody, form: true, response: pledgeResult, policy: { origin: 'form' } },
  }),
  page('/pledge', 'Make a public pledge (form post; answers 303 to the pledge)', {
    methods: ['POST'],
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
    // The page form of POST /sovereign/pledge: the same body and answer.
    POST: { body: pledgeBody, form: true, response: pledgeResult, policy: { origin: 'form' } },
  }),
  mutation('/sovereign/pledge', 'Make a pledge (JSON or form)', {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: { body: pledgeBody, form: true, response: pledgeResult, policy: { origin: 'form' } },
  }),
  mutation('/sovereign/pledge/back', "Back another sovereign's pledge", {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: { body: backBody, form: true, response: pledgeResult, policy: { origin: 'form' } },
  }),
  mutation('/sovereign/court-sign', 'A juror signs a court verdict', {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: {
      body: courtSignBody,
      form: true,
      response: z.union([signResult, caseResult]),
      policy: { origin: 'form' },
    },
  }),
  api('/api/court/precedent/{id}', 'A precedent set by a final court verdict', {
    GET: { params: precedentParams, response: precedentSchema, policy: { cache: 'public-1m' } },
  }),
  api('/api/verdicts', 'Court verdicts: case, jurors (public tags), outcome, receipt', {
    // says what this viewer may sign
    GET: { query: verdictsQuery, response: verdictsSchema, policy: { cache: 'private' } },
  }),
  page('/verdicts', 'Court verdicts and the precedents they set', {
    GET: { query: verdictsQuery, response: verdictsSchema },
  }),
  feed('/verdicts.xml', 'Atom feed of court verdicts'),
  feed('/reversals.xml', 'Atom feed of overturned decisions (reversed verdicts and repealed articles)'),
  api('/api/dissent', 'Recorded dissent: cosigns withheld, dissenting juror opinions', {
    GET: { query: dissentQuery, response: dissentSchema, policy: { cache: 'public-1m' } },
  }),
  page('/dissent', 'Dissent on proposals and verdicts', {
    GET: { query: dissentQuery, response: dissentSchema, policy: { cache: 'public-1m' } },
  }),
  api('/api/abstentions', 'Abstentions in ratifications and verdicts, counted (k-anonymous)', {
    // shared_cache_audience lists /abstentions
    GET: { query: abstentionsQuery, response: abstentionsSchema, policy: { cache: 'private' } },
  }),
  page('/abstentions', 'Abstentions and what they mean for quorum', {
    GET: { query: abstentionsQuery, response: abstentionsSchema },
  }),
];
