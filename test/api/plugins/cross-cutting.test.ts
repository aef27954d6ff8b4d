import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import errors from '../../../api/plugins/errors.ts';
import rateLimit from '../../../api/plugins/rate-limit.ts';
import sameOrigin from '../../../api/plugins/same-origin.ts';
import securityHeaders from '../../../api/plugins/security-headers.ts';
import { BODY_LIMIT } from '../../../api/app.ts';
import { parseInput } from '../../../api/route.ts';
import { Refusal } from '../../../shared/errors.ts';
import { safeReturnTarget } from '../../../shared/security.ts';
import { z } from 'zod';

const ORIGIN = 'https://civitas.test';

/** The plugins exactly as the app registers them, around a few probe routes. */
async function probeApp(): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit: BODY_LIMIT });
  await app.register(errors);
  await app.register(securityHeaders);
  await app.register(formbody);
  await app.register(sameOrigin, { origin: ORIGIN });
  await app.register(rateLimit, { readsPerMin: 5, writesPerMin: 2 });
  app.get('/read', async () => ({ ok: true }));
  app.post('/write', async () => ({ ok: true }));
  app.post('/door', { config: { credentialDoor: true } }, async (_request, reply) => {
    reply.header('set-cookie', 'civitas_session=abc; HttpOnly; Path=/');
    return { ok: true };
  });
  app.post('/validate', async (request) =>
    parseInput(z.object({ name: z.string().min(2), age: z.number().int() }), request.body),
  );
  app.get('/go', async (request) => {
    const target = safeReturnTarget((request.query as { return_to?: string }).return_to);
    if (!target) throw new Refusal('off_origin_target');
    return { ok: true, target };
  });
  app.get('/charge', async (request) => {
    await app.chargeWrite(request);
    return { ok: true };
  });
  app.get('/boom', async () => {
    throw new Error('database password is hunter2 at /srv/secret.ts:12');
  });
  await app.ready();
  return app;
}

let app: FastifyInstance;
beforeAll(async () => {
  app = await probeApp();
});
afterAll(async () => app?.close());

describe('error shape', () => {
  it('lists zod issues per field', async () => {
    const res = await app.inject({ method: 'POST', url: '/validate', payload: { name: 'x', age: 'old' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ ok: false, reason: 'invalid_request' });
    expect(body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['age', 'name']);
  });
  it('never leaks runtime words or stack traces on a 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('secret.ts');
    expect(res.json()).toMatchObject({ ok: false, reason: 'internal_error' });
  });
  it('answers unknown paths with not_found', async () => {
    const res = await app.inject({ method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('not_found');
  });
  it('answers malformed JSON with invalid_request and an unsupported type with 415', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/validate',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().reason).toBe('invalid_request');
    const odd = await app.inject({
      method: 'POST',
      url: '/validate',
      payload: 'x',
      headers: { 'content-type': 'application/x-odd' },
    });
    expect(odd.statusCode).toBe(415);
    expect(odd.json().reason).toBe('unsupported_media_type');
  });
});

describe('body limit', () => {
  it('refuses a body over 64 KiB with 413 payload_too_large', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/validate',
      payload: { name: 'x'.repeat(BODY_LIMIT) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ ok: false, reason: 'payload_too_large' });
  });
  it('accepts a body just under the limit', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/validate',
      payload: { name: 'x'.repeat(BODY_LIMIT - 100), age: 1 },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('security headers', () => {
  it('puts HSTS, CSP, nosniff and referrer policy on every response, errors included', async () => {
    for (const url of ['/read', '/nowhere']) {
      const res = await app.inject({ method: 'GET', url, remoteAddress: '10.9.9.9' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBeTruthy();
    }
  });
});

describe('same-origin credential doors', () => {
  it('accepts the service origin and sets private, no-store with the cookie', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/door',
      headers: { origin: ORIGIN },
      remoteAddress: '10.0.0.1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeTruthy();
    expect(res.headers['cache-control']).toBe('private, no-store');
  });
  it('accepts Sec-Fetch-Site same-origin without Origin', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/door',
      headers: { 'sec-fetch-site': 'same-origin' },
      remoteAddress: '10.0.0.2',
    });
    expect(res.statusCode).toBe(200);
  });
  it('refuses a cross-site origin, a null origin, and a request with no evidence', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      {},
      { 'sec-fetch-site': 'cross-site' },
    ] as Record<string, string>[]) {
      const res = await app.inject({ method: 'POST', url: '/door', headers, remoteAddress: '10.0.0.3' });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().reason).toBe('cross_origin_refused');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });
});

describe('return targets', () => {
  it('keeps local paths and refuses anything that would leave the origin', async () => {
    const ok = await app.inject({
      method: 'GET',
      url: '/go?return_to=%2Fsovereign%3Ftab%3Ddata',
      remoteAddress: '10.1.0.1',
    });
    expect(ok.json().target).toBe('/sovereign?tab=data');
    const targets = [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      'javascript:alert(1)',
      'sovereign',
      '/%5Cevil',
      '/.//evil.example',
      '/%2e//evil.example',
      '/a/..//evil.example',
    ];
    for (const [i, target] of targets.entries()) {
      const res = await app.inject({
        method: 'GET',
        url: `/go?return_to=${encodeURIComponent(target)}`,
        remoteAddress: `10.1.1.${i}`,
      });
      expect(res.statusCode, target).toBe(400);
      expect(res.json().reason).toBe('off_origin_target');
    }
  });
});

describe('rate limits', () => {
  it('refuses the request after the read budget with 429, Retry-After and retry_after', async () => {
    const remoteAddress = '10.2.0.1';
    for (let i = 0; i < 5; i++)
      expect((await app.inject({ method: 'GET', url: '/read', remoteAddress })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'GET', url: '/read', remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(refused.json().retry_after).toBeGreaterThan(0);
    // Another actor is unaffected.
    expect((await app.inject({ method: 'GET', url: '/read', remoteAddress: '10.2.0.2' })).statusCode).toBe(
      200,
    );
  });
  it('counts writes apart from reads, with the smaller write budget', async () => {
    const remoteAddress = '10.3.0.1';
    expect((await app.inject({ method: 'POST', url: '/write', remoteAddress })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/write', remoteAddress })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/write', remoteAddress })).statusCode).toBe(429);
    expect((await app.inject({ method: 'GET', url: '/read', remoteAddress })).statusCode).toBe(200);
  });
});

describe('write budget outside write routes', () => {
  it('chargeWrite spends the same write budget as POST routes and refuses with 429 when it is gone', async () => {
    const remoteAddress = '10.4.0.1';
    expect((await app.inject({ method: 'POST', url: '/write', remoteAddress })).statusCode).toBe(200);
    const charged = await app.inject({ method: 'GET', url: '/charge', remoteAddress });
    expect(charged.statusCode).toBe(200);
    const refused = await app.inject({ method: 'GET', url: '/charge', remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ reason: 'rate_limited' });
    expect((await app.inject({ method: 'POST', url: '/write', remoteAddress })).statusCode).toBe(429);
  });
});
