/**
 * The one text rule (shared/storable-text.ts): NUL (U+0000) or an unpaired surrogate in any field of
 * any contract (body, query, path parameter) answers 400 invalid_request naming the field, never
 * 500, on PostgreSQL and on the embedded database alike. The fields come from walking the zod
 * schemas of every contract (shared/registry/contracts.ts); the query strings read without a
 * contract (`/search?q=`, `/settings/data/request?download=`, `/standing?minted=`) are swept too.
 */
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS } from '../../../shared/registry/contracts.ts';
import { findRoute, pathParams } from '../../../shared/registry/index.ts';
import type { Contract } from '../../../shared/contract.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { at } from '../../helpers/elements.ts';

const NUL = 'before\u0000after';
const LONE = 'before\uD800after';

interface Probe {
  key: string;
  part: 'body' | 'query' | 'params';
  field: string;
}

const fieldsOf = (schema: z.ZodObject | undefined) => (schema ? Object.keys(schema.shape) : []);

/** Every field of every contract, except /mcp's JSON-RPC envelope (its tool arguments: mcp-text.test.ts). */
const PROBES: Probe[] = Object.entries(CONTRACTS as Record<string, Contract>).flatMap(([key, contract]) => {
  if (key === 'POST /mcp') return [];
  const path = at(key.split(' '), 1);
  return [
    ...fieldsOf(contract.body).map((field) => ({ key, part: 'body' as const, field })),
    ...fieldsOf(contract.query).map((field) => ({ key, part: 'query' as const, field })),
    ...pathParams(path).map((field) => ({ key, part: 'params' as const, field })),
  ];
});

/** Query strings read by pages and handlers without a contract field. */
const UNCONTRACTED: Probe[] = (
  [
    { key: 'GET /search', part: 'query', field: 'q' },
    { key: 'POST /settings/data/request', part: 'query', field: 'download' },
    { key: 'GET /settings/data/request', part: 'query', field: 'download' },
    { key: 'GET /standing', part: 'query', field: 'minted' },
  ] as Probe[]
).filter((probe) => findRoute(probe.key));

let t: TestApp;
let me: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  me = await signedInSovereign(t.app, { governance: true });
  t.app.civitas.config.stewards.push(me.tag);
});
afterAll(() => t?.close());

async function send(probe: Probe, value: string, accept = 'application/json') {
  const [method, path] = probe.key.split(' ') as [string, string];
  const url = path.replace(/\{([a-z]+)\}/g, (_, name: string) =>
    encodeURIComponent(probe.part === 'params' && name === probe.field ? value : '1'),
  );
  const query = probe.part === 'query' ? `?${probe.field}=${encodeURIComponent(value)}` : '';
  return t.app.inject({
    method: method as 'GET',
    url: url + query,
    headers: { accept, cookie: me.cookie, origin: TEST_ORIGIN },
    ...(method !== 'GET' && method !== 'HEAD'
      ? { payload: probe.part === 'body' ? { [probe.field]: value } : {} }
      : {}),
  });
}

describe('the one text rule', () => {
  it('walks the contracts to many fields', () => {
    expect(PROBES.length).toBeGreaterThan(100);
    expect(UNCONTRACTED.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses NUL and a lone surrogate in every contracted field with 400 naming it', async () => {
    const wrong: string[] = [];
    for (const probe of [...PROBES, ...UNCONTRACTED]) {
      // A URL is UTF-8: a lone surrogate can only arrive in a JSON body (as an escape).
      for (const value of probe.part === 'body' ? [NUL, LONE] : [NUL]) {
        const res = await send(probe, value);
        const issues: { path: string }[] = res.statusCode === 400 ? (res.json().issues ?? []) : [];
        if (res.statusCode !== 400 || !issues.some((issue) => issue.path === probe.field))
          wrong.push(`${probe.key} ${probe.part}.${probe.field} ${JSON.stringify(value)}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('never answers 500 to the pages either', async () => {
    const failed: string[] = [];
    for (const probe of [...PROBES, ...UNCONTRACTED].filter((p) => p.key.startsWith('GET '))) {
      const res = await send(probe, NUL, 'text/html');
      if (res.statusCode >= 500) failed.push(`${probe.key} ${probe.part}.${probe.field}: ${res.statusCode}`);
    }
    expect(failed).toEqual([]);
  });

  it('still takes text with emoji and accents', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quick-imprint',
      headers: { accept: 'application/json', cookie: me.cookie, origin: TEST_ORIGIN },
      payload: { body: 'déjà vu 😀 — ok' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
