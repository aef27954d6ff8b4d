/**
 * Issue 19 point 3: /openapi.json declares every status an operation answers. Every published
 * operation is fuzzed (test/api/contract/fuzz.ts): anonymous, signed in without the scope, signed
 * in with every scope and a wrong continuity proof; with an empty, a sampled, a malformed, a
 * non-object, an oversize and a wrongly typed body; with unknown and over-long identifiers; with a
 * method its path does not take; and over a tiny rate budget. Every status that comes back must be
 * declared for that operation, and every refusal must be the one error shape the document publishes.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { randomBytes } from 'node:crypto';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { SESSION_COOKIE, hashSession } from '../../../api/plugins/session.ts';
import {
  PUBLISHED_ROUTES,
  isStaticPlaceholder,
  pathParams,
  routeKey,
  type RouteShape,
} from '../../../shared/registry/index.ts';
import { concreteUrl, probesOf, type Probe } from './fuzz.ts';
import { at } from '../../helpers/elements.ts';
import { TREASURY_OFF } from '../../helpers/stripe.ts';

const PROVIDERS_OFF = {
  smtpUrl: undefined,
  idp: undefined,
  federationPeers: [],
  treasury: TREASURY_OFF,
};

let t: TestApp;
let doc: Record<string, any>;
let isError: (body: unknown) => boolean;
beforeAll(async () => {
  t = await createTestApp({ config: PROVIDERS_OFF });
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const ajv = new Ajv2020({ strict: false });
  isError = ajv.compile(doc.components.schemas.Error);
});
afterAll(async () => t?.close());

const SWEPT = PUBLISHED_ROUTES.filter((shape) => !isStaticPlaceholder(shape.path));

function declared(shape: RouteShape, method: string): string[] {
  return Object.keys(doc.paths[shape.path][method.toLowerCase()].responses);
}

interface Outcome {
  /** The payload schema names the answers carried (`civitas.*.v1`). */
  names: Set<string>;
  undeclared: string[];
  notErrorShape: string[];
  seen: Map<number, number>;
}

/** A new session of a sovereign, as its cookie header. */
async function sessionOf(sovereign: TestSovereign): Promise<string> {
  const value = randomBytes(32).toString('base64url');
  const now = t.clock.now();
  await t.database.db.query(
    'insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)',
    [hashSession(value), sovereign.id, now.toISOString(), new Date(now.getTime() + 86_400_000).toISOString()],
  );
  return `${SESSION_COOKIE}=${value}`;
}

function collectNames(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (/^civitas\.[a-z0-9.-]+\.v\d+$/.test(value)) into.add(value);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collectNames(item, into);
  }
}

async function send(p: Probe) {
  return t.app.inject({ method: p.method as 'GET', url: p.url, headers: p.headers, payload: p.payload });
}

/** Records one answer: declared or not, and in the one error shape when it is a JSON refusal. */
async function check(out: Outcome, shape: RouteShape, method: string, p: Probe) {
  const res = await send(p);
  const status = res.statusCode;
  // Pages are not built for this app (no site mounted): their HTML variant answers 501.
  if (
    status === 501 &&
    (!t.app.site || t.app.realisations.get(routeKey(method as 'GET', shape.path)) === 'not_implemented')
  )
    return;
  out.seen.set(status, (out.seen.get(status) ?? 0) + 1);
  if (!declared(shape, method).includes(String(status)))
    out.undeclared.push(`${method} ${shape.path} (${p.label}) → ${status}`);
  if (status === 200 && res.body && String(res.headers['content-type']).includes('json'))
    collectNames(res.json(), out.names);
  if (status >= 400 && method !== 'HEAD' && shape.path !== '/mcp' && shape.path !== '/health') {
    if (!String(res.headers['content-type']).includes('application/json') || !isError(res.json()))
      out.notErrorShape.push(`${method} ${shape.path} (${p.label}) → ${status}`);
  }
}

describe('every status answered is declared (issue 19 point 3)', () => {
  it('fuzzes every operation: who, what body, which identifier', async () => {
    const plain = await signedInSovereign(t.app);
    const full = await signedInSovereign(t.app, { governance: true });
    t.app.civitas.config.stewards.push(full.id);
    const out: Outcome = { names: new Set(), undeclared: [], notErrorShape: [], seen: new Map() };
    for (const shape of SWEPT) {
      for (const method of shape.methods) {
        // Fresh sessions per operation: a sign-out among the doors ends the last ones.
        const who: Record<string, string>[] = [
          { origin: TEST_ORIGIN },
          { origin: TEST_ORIGIN, cookie: await sessionOf(plain) },
          { origin: TEST_ORIGIN, cookie: await sessionOf(full), 'x-civitas-continuity': 'cs_wrong' },
        ];
        for (const base of who)
          for (const p of probesOf(shape, method, base)) await check(out, shape, method, p);
        if (pathParams(shape.path).length) {
          const url = shape.path.replace(/\{[a-z]+\}/g, 'x'.repeat(300));
          await check(out, shape, method, { label: 'long id', method, url, headers: at(who, 0) });
        }
      }
    }
    expect(out.undeclared).toEqual([]);
    expect(out.notErrorShape).toEqual([]);
    // /api/version lists every payload schema name the answers carried (issue 19 point 3).
    const listed = new Set((await t.app.inject({ method: 'GET', url: '/api/version' })).json().schemas);
    expect([...out.names].filter((name) => !listed.has(name)).sort()).toEqual([]);
    expect(out.names.size).toBeGreaterThan(60);
    // The sweep reached each kind of answer, so it cannot pass by seeing none.
    for (const status of [200, 303, 400, 401, 402, 403, 404, 413, 414, 415, 503])
      expect(out.seen.get(status) ?? 0, `answers with ${status}`).toBeGreaterThan(0);
  }, 600_000);

  it('a method a path does not take answers 405 in the error shape, with Allow naming its methods', async () => {
    const templates = Object.keys(doc.paths).map((path) => ({
      methods: Object.keys(doc.paths[path]).map((m) => m.toUpperCase()),
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z]+\}/g, '[^/]+')}$`),
    }));
    const wrong: string[] = [];
    for (const shape of SWEPT) {
      const url = concreteUrl(shape);
      // Every method any template of this URL takes (`/api/agent/imprint` is also a `{handle}`).
      const allow = new Set(templates.filter((t) => t.pattern.test(url)).flatMap((t) => t.methods));
      if (allow.has('GET')) allow.add('HEAD');
      const expected = ['GET', 'HEAD', 'POST'].filter((m) => allow.has(m)).join(', ');
      for (const method of ['GET', 'POST', 'DELETE'].filter((m) => !allow.has(m))) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { origin: TEST_ORIGIN, accept: 'application/json' },
        });
        // /mcp answers in JSON-RPC, its refusal body under error.data, and takes GET and POST only.
        const mcp = shape.path === '/mcp';
        const body = mcp ? res.json().error?.data : res.json();
        const allowHeader = mcp ? 'GET, POST' : expected;
        if (res.statusCode !== 405 || res.headers.allow !== allowHeader || !isError(body))
          wrong.push(`${method} ${shape.path} → ${res.statusCode} ${res.headers.allow} ${body?.reason}`);
        else expect(body.reason).toBe('method_not_allowed');
      }
    }
    expect(wrong).toEqual([]);
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).toBeDefined();
    // A path nothing serves is still 404.
    const none = await t.app.inject({ method: 'POST', url: '/no/such/path', payload: {} });
    expect(none.statusCode).toBe(404);
  }, 120_000);
});

describe('over the rate budget', () => {
  let tight: TestApp;
  beforeAll(async () => {
    tight = await createTestApp({ config: { ...PROVIDERS_OFF, rateReadsPerMin: 1, rateWritesPerMin: 1 } });
  });
  afterAll(async () => tight?.close());

  it('answers 429 with Retry-After, declared with its header on every rate-limited operation', async () => {
    const answered: string[] = [];
    for (const [method, url, path] of [
      ['GET', '/api/stats', '/api/stats'],
      ['POST', '/feedback/report', '/feedback/report'],
      ['GET', '/api/agent/zz-unknown-agent', '/api/agent/{handle}'],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const res = await tight.app.inject({
          method,
          url,
          headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
          ...(method === 'POST' ? { payload: { topic: 'other', body: 'x' } } : {}),
        });
        if (res.statusCode !== 429) continue;
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(isError(res.json())).toBe(true);
        answered.push(`${method} ${path}`);
        const response = doc.paths[path][method.toLowerCase()].responses['429'];
        expect(response, `${method} ${path}`).toEqual({ $ref: '#/components/responses/TooManyRequests' });
      }
    }
    expect(new Set(answered).size).toBe(3);
    expect(doc.components.responses.TooManyRequests.headers['Retry-After'].schema.type).toBe('integer');
    for (const shape of PUBLISHED_ROUTES)
      for (const method of shape.methods) {
        const path = isStaticPlaceholder(shape.path) ? undefined : doc.paths[shape.path];
        if (path) expect(Boolean(path[method.toLowerCase()].responses['429'])).toBe(shape.rate !== 'none');
      }
  });
});
