/**
 * The access log: one line per request (request id, method, route template, status, duration,
 * bytes); X-Request-Id accepted when sane and echoed; a server error logged with its stack and the
 * request id, never shown to the client.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
const lines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

beforeAll(async () => {
  t = await createTestApp({ logger: true, logStream, config: { accessLogSample: 1, logLevel: 'info' } });
});
afterAll(() => t?.close());

describe('access log and request ids', () => {
  it('writes one line per request and echoes a sane X-Request-Id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/version',
      headers: { 'x-request-id': 'abc-123.trace' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123.trace');
    const line = lines.find((l) => l.reqId === 'abc-123.trace' && l.msg === 'request');
    expect(line).toMatchObject({ method: 'GET', route: '/api/version', status: 200 });
    expect(typeof line?.ms).toBe('number');
    expect(line?.bytes).toBeGreaterThan(0);
  });

  it('replaces an insane request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/version',
      headers: { 'x-request-id': 'evil\u0000id with spaces and <tags>' },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a server error with its stack and request id, never to the client', async () => {
    const { db } = t.app.civitas;
    const query = db.query;
    db.query = (async () => {
      throw new Error('the boom of a test');
    }) as typeof query;
    let res;
    try {
      res = await t.app.inject({
        method: 'GET',
        url: '/api/citizens',
        headers: { 'x-request-id': 'boom-1' },
      });
    } finally {
      db.query = query;
    }
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('the boom of a test');
    const line = lines.find((l) => l.reqId === 'boom-1' && l.msg === 'request failed') as
      { err: { stack: string } } | undefined;
    expect(line?.err.stack).toContain('the boom of a test');
  });
});
