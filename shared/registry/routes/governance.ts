import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, feed, mutation, page } = family('governance');

/** Governance: constitution, axioms, pledges, courts and verdicts. */
export const GOVERNANCE_ROUTES: RouteShape[] = [
  api(
    '/api/constitution',
    'The constitution: ratified articles, open proposals with cosigns and ratifications',
  ),
  mutation('/api/constitution/propose', 'Propose an amendment to the constitution', {
    scope: 'governance:write',
    refuses: { POST: ['not_found'] },
  }),
  mutation('/api/constitution/cosign', 'Cosign a proposal (3 cosigns open it to ratification)', {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  mutation(
    '/api/constitution/ratify',
    'Ratify a proposal, carrying a human-uniqueness receipt from the external authority',
    {
      externalAuthority: 'idp-receipt',
      identity: 'session',
      authorityScope: 'governance:write',
      refuses: { POST: ['conflict', 'not_found'] },
    },
  ),
  page('/constitution', 'The constitution: articles, proposals in progress and their history'),
  api('/api/axioms', 'The fixed founding articles'),
  page('/axioms', 'The founding axioms of civitas'),
  page(
    '/lineage',
    'Lineage of the constitution: each article back to its proposal, cosigns and ratification',
  ),
  page(
    '/ceremony',
    'The identity ceremony: how a person crosses, signs in with the provider and gains governance standing',
  ),
  page('/provenance', 'Provenance of claims the service makes: where each figure comes from'),
  page('/provenance/{claim}', 'Provenance of one claim: its data source, computation and receipts'),
  api('/api/codex/pledges', 'The codex of public pledges and their review state'),
  mutation('/api/codex/pledges/review', 'Review a pledge, carrying a receipt from the external authority', {
    externalAuthority: 'idp-receipt',
    identity: 'session',
    authorityScope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  page('/pledge', 'Make a public pledge (form post; answers 303 to the pledge)', {
    methods: ['POST'],
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  mutation('/sovereign/pledge', 'Make a pledge (JSON or form)', {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  mutation('/sovereign/pledge/back', "Back another sovereign's pledge", {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  mutation('/sovereign/court-sign', 'A juror signs a court verdict', {
    scope: 'governance:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  api('/api/court/precedent/{id}', 'A precedent set by a final court verdict'),
  api('/api/verdicts', 'Court verdicts: case, jurors (public tags), outcome, receipt'),
  page('/verdicts', 'Court verdicts and the precedents they set'),
  feed('/verdicts.xml', 'Atom feed of court verdicts'),
  feed('/reversals.xml', 'Atom feed of overturned decisions (reversed verdicts and repealed articles)'),
  api('/api/dissent', 'Recorded dissent: cosigns withheld, dissenting juror opinions'),
  page('/dissent', 'Dissent on proposals and verdicts'),
  api('/api/abstentions', 'Abstentions in ratifications and verdicts, counted (k-anonymous)'),
  page('/abstentions', 'Abstentions and what they mean for quorum'),
];
