import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_COUNT, PUBLISHED_ROUTES } from '../../shared/registry/index.ts';
import { RELEASE_DATE } from '../../api/config.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('discovery', () => {
  it('serves /openapi.json generated from the registry, valid OpenAPI 3.1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1');
    expect(Object.keys(doc.paths)).toHaveLength(PUBLISHED_COUNT);
    expect(doc.paths['/operator']).toBeUndefined();
    expect(doc.paths['/dashboard']).toBeUndefined();
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify('errors' in result ? result.errors.slice(0, 3) : [])).toBe(true);
  });

  it('serves operator surfaces without publishing them', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/operator' });
    expect(res.statusCode).not.toBe(404);
  });

  it('publishes /agents.json with the discovery order, three contracts, MCP, feeds and JWKS', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/agents.json' })).json();
    expect(body.discovery_order.map((s: { fetch?: string }) => s.fetch).slice(0, 2)).toEqual([
      '/agents.json',
      '/openapi.json',
    ]);
    expect(body.contracts.map((c: { name: string }) => c.name)).toEqual([
      'sovereign_session',
      'agent_continuity',
      'paid_capabilities',
    ]);
    expect(body.openapi).toBe(`${TEST_ORIGIN}/openapi.json`);
    expect(body.mcp.endpoint).toBe(`${TEST_ORIGIN}/mcp`);
    expect(body.mcp.tools).toContain('civitas_presence');
    expect(body.llms_txt).toBe(`${TEST_ORIGIN}/llms.txt`);
    expect(body.feeds.some((f: { path: string }) => f.path === '/imprint/feed.json')).toBe(true);
    expect(body.jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(body.jwks.keys[0].d).toBeUndefined();
  });

  it('serves llms.txt at both paths, RFC 9116 security.txt at both paths, and robots.txt', async () => {
    for (const url of ['/llms.txt', '/.well-known/llms.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(/^# civitas/);
      expect(res.body).toContain('/agents.json');
    }
    for (const url of ['/security.txt', '/.well-known/security.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toMatch(/^Contact: /m);
      const expires = /^Expires: (.+)$/m.exec(res.body)?.[1];
      expect(expires).toBeDefined();
      // A year after this release (CHANGELOG.md's date for APP_VERSION), not a year after now.
      expect(expires).toBe(`${Number(RELEASE_DATE!.slice(0, 4)) + 1}${RELEASE_DATE!.slice(4)}T00:00:00.000Z`);
      expect(res.body).not.toContain('civitas.invalid');
      expect(res.body).toContain(`Canonical: ${TEST_ORIGIN}/.well-known/security.txt`);
    }
    // The body does not move with the clock: pollers and caches see one file per release.
    const before = await t.app.inject({ method: 'GET', url: '/.well-known/security.txt' });
    t.clock.advance(3 * 86_400_000);
    const after = await t.app.inject({ method: 'GET', url: '/.well-known/security.txt' });
    expect(after.body).toBe(before.body);
    expect(after.headers.etag).toBe(before.headers.etag);
    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.body).toContain('User-agent: *');
    expect(robots.body).toContain(`Sitemap: ${TEST_ORIGIN}/sitemap.xml`);
  });
});

describe('health', () => {
  it('answers liveness, readiness with a database check, and versions', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/_health' })).json()).toEqual({ ok: true });
    const health = (await t.app.inject({ method: 'GET', url: '/health' })).json();
    expect(health).toMatchObject({ ok: true, status: 'ready', database: { ok: true } });
    // Liveness checks no dependency (the registry's description): the process answers.
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ ok: true, live: true });
    expect(live.json()).not.toHaveProperty('database');
    const version = (await t.app.inject({ method: 'GET', url: '/api/version' })).json();
    expect(version).toMatchObject({ ok: true, api: '1' });
    expect(version.schemas).toContain('civitas.boundary-census.v1');
  });
});

/** An unscoped JSON read the router reports as not implemented yet, if any remains. */
function pendingApiRead(): string | undefined {
  return PUBLISHED_ROUTES.find(
    (r) =>
      r.kind === 'api' &&
      !r.scope &&
      !r.publicActor &&
      !r.path.includes('{') &&
      r.methods.includes('GET') &&
      t.app.realisations.get(`GET ${r.path}`) === 'not_implemented',
  )?.path;
}

describe('routes not built yet', () => {
  it('answer 501 not_implemented honestly, in the error shape', async () => {
    const path = pendingApiRead();
    if (!path) return; // every JSON read is built: nothing left to refuse
    const res = await t.app.inject({ method: 'GET', url: path });
    expect(res.statusCode, path).toBe(501);
    expect(res.json()).toMatchObject({ ok: false, reason: 'not_implemented' });
    expect(res.json().hint).toBeTruthy();
  });
  it('/atlas (JSON) counts real routes out of 279', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/atlas', headers: { accept: 'application/json' } });
    const body = res.json();
    expect(body.total).toBe(PUBLISHED_COUNT);
    expect(body.real).toBeGreaterThan(10);
    expect(body.real + body.not_implemented).toBe(PUBLISHED_COUNT);
    expect(body.routes.find((r: { path: string }) => r.path === '/api/agent/{handle}').real).toBe(true);
    const pending = pendingApiRead();
    if (pending) expect(body.routes.find((r: { path: string }) => r.path === pending).real).toBe(false);
  });
});

describe('security.txt from configuration', () => {
  it('publishes the configured contact address and expiry', async () => {
    const configured = await createTestApp({
      config: { contactEmail: 'security@example.org', securityTxtExpires: '2027-06-30T00:00:00Z' },
    });
    try {
      const res = await configured.app.inject({ method: 'GET', url: '/.well-known/security.txt' });
      expect(res.body).toContain('Contact: mailto:security@example.org');
      expect(res.body).toContain('Expires: 2027-06-30T00:00:00.000Z');
    } finally {
      await configured.close();
    }
  });
});
