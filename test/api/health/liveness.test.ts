/**
 * GET /health/live on a real socket is answered before Fastify (api/health/liveness.ts); through
 * app.inject (and for HEAD or another URL form) by the registry route. Both must give one answer:
 * same status, same body fields, same headers. Liveness checks no dependency; /_health does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

/** The headers that describe the answer; the connection's own (date, keep-alive) and the request id differ per response. */
function answerHeaders(headers: Record<string, unknown>) {
  const {
    date: _date,
    connection: _connection,
    'keep-alive': _keepAlive,
    'x-request-id': _requestId,
    ...rest
  } = headers;
  return rest;
}

describe('GET /health/live', () => {
  it('answers on the socket exactly as the registry route does through inject', async () => {
    const socket = await fetch(`${base}/health/live`);
    const injected = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(socket.status).toBe(200);
    expect(injected.statusCode).toBe(200);
    const fromSocket = await socket.json();
    expect(fromSocket).toMatchObject({ ok: true, live: true });
    expect(Object.keys(fromSocket)).toEqual(Object.keys(injected.json()));
    const socketHeaders = answerHeaders(Object.fromEntries(socket.headers));
    const injectHeaders = answerHeaders(injected.headers);
    delete injectHeaders['content-length'];
    delete socketHeaders['content-length'];
    expect(socketHeaders).toEqual(
      Object.fromEntries(Object.entries(injectHeaders).map(([k, v]) => [k, String(v)])),
    );
    expect(socketHeaders['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(socketHeaders['cache-control']).toBe('no-store');
  });

  it('leaves every other request to Fastify: HEAD, a query string, other paths', async () => {
    const head = await fetch(`${base}/health/live`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const withQuery = await fetch(`${base}/health/live?x=1`);
    expect((await withQuery.json()).live).toBe(true);
    const other = await fetch(`${base}/api/version`);
    expect((await other.json()).api).toBe('1');
  });

  it('stays live when the database does not answer, while /_health and /health say not ready', async () => {
    const query = t.app.civitas.db.query;
    t.app.civitas.db.query = (async () => {
      throw new Error('connection refused');
    }) as typeof query;
    try {
      const live = await fetch(`${base}/health/live`);
      expect(live.status).toBe(200);
      expect((await live.json()).live).toBe(true);
      const probe = await fetch(`${base}/_health`);
      expect(probe.status).toBe(503);
      expect(await probe.json()).toMatchObject({ ok: false, reason: 'unavailable' });
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        ok: false,
        status: 'degraded',
        database: { ok: false, latency_ms: null },
      });
    } finally {
      t.app.civitas.db.query = query;
    }
    expect((await fetch(`${base}/_health`)).status).toBe(200);
  });
});
