/**
 * Pages with a JSON twin (a `page` implementation answering `Accept: application/json`): over a
 * Record with imprints, a thread, a held imprint, a triage, a prophecy, a pact, a proposal and a
 * data request, each twin's real answer matches its contract's published JSON Schema exactly
 * (`additionalProperties: false`), including the signed-in and steward-only ones the
 * document-only client (test/api/openapi-client.test.ts) cannot reach.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonSchemaOf } from '../../shared/contract.ts';
import { contractFor } from '../../shared/registry/contracts.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  agentImprint,
  heldAgentImprint,
  jsonHeaders,
  sovereignImprint,
  triage,
} from '../helpers/builders.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { appWithSteward } from './steward/helpers.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
let steward: TestSovereign;
let ada: TestSovereign;
const ids: Record<string, string> = {};
const ajv = new Ajv2020({ strict: false, allErrors: true });

const http = requests(() => t.app);
const post = async (url: string, payload: object, who: TestSovereign) => {
  const res = await http.post(url, payload, who);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  ada = await signedInSovereign(t.app, { governance: true });
  const root = await sovereignImprint(t.app, ada, 'What should the Record remember?', { kind: 'question' });
  await agentImprint(t.app, 'twin-agent', 'It should remember its own receipts.');
  await sovereignImprint(t.app, ada, 'And the days it sealed.', { replyTo: root.sequence });
  const held = await heldAgentImprint(t.app, 'twin-spam', 'twinmarker');
  await triage(t.app, steward, held.sequence, 'keep_held', 'spam, kept held');
  await heldAgentImprint(t.app, 'twin-spam-2', 'othermarker');
  await post('/imprint/report', { sequence: root.sequence, reason: 'other', detail: 'a test report' }, ada);
  ids.prophecy = (
    await post(
      '/sovereign/prophecy',
      { metric: 'imprints_lifetime', comparator: 'gte', threshold: 10, probability: 0.7, due_in_days: 3 },
      ada,
    )
  ).prophecy_id;
  await post('/sovereign/pact', { title: 'Write the onboarding guide', stake: 10, due_in_days: 7 }, ada);
  ids.proposal = (
    await post(
      '/api/constitution/propose',
      { title: 'Receipts stay verifiable', text: 'Every receipt stays verifiable for ten years.' },
      ada,
    )
  ).proposal.id;
  await post('/settings/data/request', { kind: 'export' }, ada);
  ids.receipt = root.receipt_id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The registry key of each read, the URL it is asked at, and who asks. */
function reads(): [key: string, url: string, who?: TestSovereign][] {
  return [
    ['GET /chronicle', '/chronicle?months=3'],
    ['GET /today', '/today'],
    ['GET /ascensions', '/ascensions'],
    ['GET /story', '/story'],
    ['GET /story/weekly', '/story/weekly'],
    ['GET /prophecy', '/prophecy'],
    ['GET /almanac', '/almanac'],
    ['GET /calibration', '/calibration'],
    ['GET /orders', '/orders'],
    ['GET /dream-constellation', '/dream-constellation'],
    ['GET /branchworld/{id}', `/branchworld/${ids.prophecy}`],
    ['GET /branchworld/{id}', `/branchworld/${ids.proposal}`],
    ['GET /commons', '/commons', ada],
    ['GET /lineage', '/lineage'],
    ['GET /provenance', '/provenance'],
    ['GET /provenance/{claim}', '/provenance/axiom-1'],
    ['GET /provenance/{claim}', `/provenance/${ids.proposal}`],
    ['GET /ceremony', '/ceremony'],
    ['GET /ceremony', '/ceremony', ada],
    ['GET /constitution', '/constitution', ada],
    ['GET /verdicts', '/verdicts'],
    ['GET /dissent', '/dissent'],
    ['GET /abstentions', '/abstentions'],
    ['GET /receipt/{id}', `/receipt/${ids.receipt}`],
    ['GET /ledger', '/ledger?limit=5'],
    ['GET /ledger/{id}', `/ledger/${ids.receipt}`],
    ['GET /verify/anchor-chain', '/verify/anchor-chain'],
    ['GET /witness', '/witness'],
    ['GET /sovereign', '/sovereign', ada],
    ['GET /passport', `/passport?tag=${ada.tag}`],
    ['GET /begin/receipt/{token}', `/begin/receipt/${ada.receiptId}`],
    ['GET /settings/data', '/settings/data', ada],
    ['GET /steward/data-requests', '/steward/data-requests', steward],
    ['GET /steward/held', '/steward/held', steward],
    ['GET /steward/whispers', '/steward/whispers', steward],
    ['GET /operator', '/operator', steward],
    ['GET /dashboard', '/dashboard', steward],
    ['GET /atlas', '/atlas'],
  ];
}

describe('a page asked for JSON', () => {
  it('answers exactly what its contract describes', async () => {
    for (const [key, url, who] of reads()) {
      const schema = jsonSchemaOf(contractFor(key)!.response!, 'output');
      const res = await t.app.inject({ method: 'GET', url, headers: jsonHeaders(who?.cookie) });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const validate = ajv.compile(schema);
      expect(validate(res.json()), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('refuses a query its contract forbids with invalid_request naming the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/chronicle?months=99', headers: jsonHeaders() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'invalid_request',
      issues: [expect.objectContaining({ path: 'months' })],
    });
    const ledger = await t.app.inject({ method: 'GET', url: '/ledger?before=nope', headers: jsonHeaders() });
    expect(ledger.json()).toMatchObject({
      reason: 'invalid_request',
      issues: [expect.objectContaining({ path: 'before' })],
    });
  });
});
