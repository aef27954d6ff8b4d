/**
 * A client that knows only /openapi.json: over a real listener it reads the document, builds a
 * write's body from the documented request schema (openapi-sampler), sends it, and checks the
 * answer against the documented response schema (ajv, JSON Schema 2020-12). Then every
 * contracted read is called with parameters sampled from the document, and each answer must
 * match its published schema: the contracts describe what the handlers really return.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { sample } from 'openapi-sampler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS } from '../../shared/registry/contracts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signedInSovereign } from '../helpers/identity.ts';
import { missing } from '../helpers/elements.ts';

type Json = Record<string, any>;
let t: TestApp;
let base: string;
let doc: Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Values a caller would know from elsewhere (its own handle, a receipt it was given); everything else comes from the document. */
const KNOWN: Record<string, string> = { handle: 'doc-client', actor: 'agent:doc-client', tag: '3fa9' };
/** Reads whose 200 needs state this file does not make; each is covered by its family's tests. */
const UNREACHED: Record<string, string> = {
  'GET /verify/anchor/{date}': 'a sealed day (days are sealed after they end)',
  'GET /verify/court/{id}': 'a court verdict',
  'GET /api/court/precedent/{id}': 'a precedent (set by a final court verdict)',
  'GET /branchworld/{id}': 'a stored prophecy or proposal',
  'GET /provenance/{claim}': 'an axiom, article or proposal id (the sampled string names none)',
  'GET /witness/receipt/{token}': 'a witness receipt token (given once by POST /api/witness/mark)',
  'GET /sovereign': 'a signed-in session',
  'GET /settings/data': 'a signed-in session',
  'GET /steward/data-requests': 'a steward session',
};
/** Personal reads (401 without a session): called as a signed-in sovereign, who has filed a data request. */
const PERSONAL = new Set([
  'GET /settings/data/request',
  'GET /api/entitlements',
  'GET /api/oracle/session',
  'GET /api/oracle/usage',
]);
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const seeded = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: KNOWN.handle, body: 'known from the document' },
  });
  expect(seeded.statusCode).toBe(200);
  const [receipt = missing()] = await t.database.db.query<{ id: string; log_date: string }>(
    `select id, to_char(log_date, 'YYYY-MM-DD') as log_date from receipts order by recorded_at desc limit 1`,
  );
  // A first free call's receipt is shared by its id (/begin/receipt/{token}).
  Object.assign(KNOWN, { id: receipt.id, date: receipt.log_date, token: receipt.id });
  doc = await (await fetch(`${base}/openapi.json`)).json();
  cookie = (await signedInSovereign(t.app)).cookie;
  const filed = await t.app.inject({
    method: 'POST',
    url: '/settings/data/request',
    headers: { cookie },
    payload: { kind: 'export' },
  });
  expect(filed.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

function operationById(id: string): { path: string; method: string; op: Json } {
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) if (op.operationId === id) return { path, method, op };
  }
  throw new Error(`no operation ${id}`);
}

function answerSchema(op: Json): Json {
  const ok = op.responses['200'];
  return ok.content['application/json']?.schema ?? ok['x-civitas-json'].schema;
}

function check(schema: Json, body: unknown, label: string) {
  const validate = ajv.compile(schema);
  expect(validate(body), `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

/** The URL of an operation with its path and required query parameters filled from the document. */
function urlFor(path: string, op: Json): string {
  const query = new URLSearchParams();
  let filled = path;
  for (const p of (op.parameters ?? []) as Json[]) {
    const value = KNOWN[p.name] ?? String(sample(p.schema, { enablePatterns: true }));
    if (p.in === 'path') filled = filled.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === 'query' && p.required) query.set(p.name, value);
  }
  return `${base}${filled}${query.size ? `?${query}` : ''}`;
}

describe('a client built from /openapi.json alone', () => {
  it('sends feedback: the body sampled from the documented schema, the answer valid against it', async () => {
    const { path, method, op } = operationById('postFeedbackReport');
    const schema = op.requestBody.content['application/json'].schema;
    const body = sample(schema, { skipNonRequired: true, enablePatterns: true }) as Json;
    check(schema, body, 'sampled body');
    const res = await fetch(`${base}${path}`, {
      method: method.toUpperCase(),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    check(answerSchema(op), answer, 'answer');
    expect(answer.receipt_id).toEqual(expect.any(String));
  });

  it('imprints as an agent: required fields from the schema, the handle its own', async () => {
    const { path, op } = operationById('postApiAgentImprint');
    const schema = op.requestBody.content['application/json'].schema;
    const body = { ...(sample(schema, { skipNonRequired: true }) as Json), agent: 'doc-writer' };
    check(schema, body, 'body');
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    check(answerSchema(op), answer, 'answer');
    expect(answer.continuity_secret).toMatch(/^cs_/);
  });

  it('refuses a body the document forbids with invalid_request naming the field', async () => {
    const res = await fetch(`${base}/api/agent/imprint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'doc-writer', body: 'x', kind: 'shout' }),
    });
    expect(res.status).toBe(400);
    const refusal = await res.json();
    expect(refusal.reason).toBe('invalid_request');
    expect(refusal.issues).toEqual([expect.objectContaining({ path: 'kind' })]);
  });

  it('reads every contracted GET and finds each answer as documented', async () => {
    // Operator routes are not in the document: a client that knows only it never calls them.
    const reads = Object.keys(CONTRACTS).filter(
      (key) =>
        key.startsWith('GET ') &&
        !(key in UNREACHED) &&
        key.slice(4) in doc.paths &&
        // a contract of inputs only (a card's query) documents no JSON answer to check
        (CONTRACTS as Record<string, { response?: unknown }>)[key]?.response !== undefined,
    );
    expect(reads.length).toBeGreaterThan(10);
    for (const key of reads) {
      const path = key.slice(4);
      const op = doc.paths[path].get;
      const res = await fetch(urlFor(path, op), {
        headers: { accept: 'application/json', ...(PERSONAL.has(key) ? { cookie } : {}) },
      });
      expect(res.status, key).toBe(200);
      check(answerSchema(op), await res.json(), key);
    }
  });
});
