/**
 * Issue 10 point 8: what /openapi.json declares matches what is sent. Every published operation
 * is called without a session (and, where it takes one, with an unknown handle and a wrong
 * continuity proof); every 401, 403 and unknown-handle 404 that comes back must be declared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { PUBLISHED_ROUTES, isStaticPlaceholder } from '../../../shared/registry/index.ts';

let t: TestApp;
let doc: Record<string, any>;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  // A known handle: the imprint door then meets a wrong proof (401) instead of creating a handle.
  expect(
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/agent/imprint',
        payload: { agent: KNOWN, body: 'here' },
      })
    ).statusCode,
  ).toBe(200);
});
afterAll(async () => t?.close());

const UNKNOWN = 'zz-unknown-agent';
const KNOWN = 'zz-known-agent';
const WATCHED = new Set([401, 403, 404]);

async function attempts(method: string, path: string) {
  const url = path.replace(/\{[a-z]+\}/g, UNKNOWN);
  const base = { origin: TEST_ORIGIN, accept: 'application/json' };
  if (method === 'POST') {
    return Promise.all([
      t.app.inject({ method, url, headers: base, payload: {} }),
      t.app.inject({
        method,
        url,
        headers: { ...base, 'x-civitas-continuity': 'cs_wrong' },
        payload: {
          agent: path === '/api/agent/imprint' ? KNOWN : UNKNOWN,
          handle: UNKNOWN,
          body: 'x',
          note: 'x',
          topic: 'other',
        },
      }),
    ]);
  }
  const query = `?handle=${UNKNOWN}&agent=${UNKNOWN}`;
  return Promise.all([
    t.app.inject({ method: method as 'GET', url, headers: base }),
    t.app.inject({
      method: method as 'GET',
      url: `${url}${query}`,
      headers: { ...base, 'x-civitas-continuity': 'cs_wrong' },
    }),
  ]);
}

describe('declared responses match what is sent', () => {
  it('declares every 401, 403 and unknown-handle 404 an operation answers', async () => {
    const undeclared: string[] = [];
    const seen = new Map<number, number>();
    for (const shape of PUBLISHED_ROUTES) {
      if (isStaticPlaceholder(shape.path)) continue;
      for (const method of shape.methods) {
        const declared = Object.keys(doc.paths[shape.path][method.toLowerCase()].responses);
        for (const res of await attempts(method, shape.path)) {
          if (!WATCHED.has(res.statusCode)) continue;
          // A 404 is the unknown-handle refusal only when it says so (other 404s: unknown ids).
          if (res.statusCode === 404 && !(res.body && res.json().reason === 'unknown_agent')) continue;
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
          if (!declared.includes(String(res.statusCode)))
            undeclared.push(`${method} ${shape.path} → ${res.statusCode}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
    // The sweep did reach each kind of refusal (so it cannot pass by seeing none).
    expect(seen.get(401)).toBeGreaterThan(40);
    expect(seen.get(404)).toBeGreaterThan(5);
  }, 300_000);

  it('scoped doors answer 401 without a session and declare it; a scoped page sends a browser to sign in (declared 303)', async () => {
    const imprint = await t.app.inject({
      method: 'POST',
      url: '/sovereign/imprint',
      headers: { origin: TEST_ORIGIN },
      payload: { body: 'x' },
    });
    expect(imprint.statusCode).toBe(401);
    expect(doc.paths['/sovereign/imprint'].post.responses['401']).toBeDefined();
    const page = await t.app.inject({ method: 'GET', url: '/sovereign', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(doc.paths['/sovereign'].get.responses['303']).toBeDefined();
  });

  it('the unknown-handle refusal is a declared 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/agent/${UNKNOWN}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('unknown_agent');
    expect(doc.paths['/api/agent/{handle}'].get.responses['404']).toBeDefined();
  });

  it('the payment provider callbacks carry no external-authority marker; the identity provider ones do', () => {
    for (const path of ['/api/stripe/webhook', '/api/stripe/issuing-authorization']) {
      expect(doc.paths[path].post['x-civitas-external-authority'], path).toBeUndefined();
    }
    const markers = new Set<string>();
    for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(item))
        if (op['x-civitas-external-authority']) markers.add(op['x-civitas-external-authority']);
    }
    expect([...markers].sort()).toEqual(['idp-oidc', 'idp-receipt']);
  });
});
