/**
 * Issue 19 point 3: every POST of /openapi.json documents the JSON it answers, the page forms
 * included (/initiate, /return, /reconcile, /steward/data-requests, /pledge, /experiments,
 * /expeditions/recovery-paradox answer JSON to a caller that sends JSON), and each of those answers
 * is valid against the schema the document publishes for it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';

type Json = Record<string, any>;
let t: TestApp;
let doc: Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => t?.close());

/** The JSON answer a 200 documents: its application/json schema, or a page's `x-civitas-json`. */
function answerSchema(path: string): Json | undefined {
  const ok = doc.paths[path].post.responses['200'];
  return ok.content?.['application/json']?.schema ?? ok['x-civitas-json']?.schema;
}

const http = requests(() => t.app);
async function post(url: string, payload: Json, cookie?: string) {
  const res = await http.post(url, payload, cookie, { origin: TEST_ORIGIN });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  const body = res.json();
  const validate = ajv.compile(answerSchema(url)!);
  expect(validate(body), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return body;
}

describe('the JSON answer of every POST', () => {
  it('is documented for every POST operation', () => {
    const missing = Object.entries(doc.paths as Record<string, Json>)
      .filter(([path, item]) => item.post && !answerSchema(path))
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it('the page forms answer a JSON caller as documented', async () => {
    const crossed = await post('/initiate', {});
    expect(crossed.key).toMatch(/^sk_/);
    await post('/return', { key: crossed.key });
    const other = await signedInSovereign(t.app); // its session moves to the key's sovereign
    expect((await post('/reconcile', { key: crossed.key }, other.cookie)).provider_moved).toBe(false);
    const holder = await signedInSovereign(t.app);

    const steward = await signedInSovereign(t.app, { governance: true });
    t.app.civitas.config.stewards.push(steward.id);
    const filed = await post('/settings/data/request', { kind: 'export' }, holder.cookie);
    const processed = await post(
      '/steward/data-requests',
      { id: filed.request.id, action: 'decline' },
      steward.cookie,
    );
    expect(processed.request.status).toBe('declined');

    const pledged = await post('/pledge', { article: 'axiom-2', text: 'I keep this one.' }, steward.cookie);
    expect(pledged.pledge).toBeTypeOf('object');
    expect((await post('/experiments', {}, holder.cookie)).run.receipt_id).toEqual(expect.any(String));
    expect((await post('/expeditions/recovery-paradox', {}, holder.cookie)).run.findings).toBeTypeOf(
      'object',
    );
  });
});
