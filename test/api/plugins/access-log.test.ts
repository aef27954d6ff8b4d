/**
 * The access log: one line per request (request id, method, route template, status, duration,
 * bytes); X-Request-Id accepted when sane and echoed; a server error logged with its stack and the
 * request id, never shown to the client.
 */
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from '../../../api/plugins/request-log.ts';
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

describe('the request logger (lazyRequestLogger)', () => {
  function capture() {
    const out: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        out.push(String(chunk));
        done();
      },
    });
    // A fixed time, so the lines of the parent and of a real child can be compared byte for byte.
    const parent = pino({ base: { pid: 1, hostname: 'h' }, timestamp: () => ',"time":0' }, stream);
    return { out, parent: parent as unknown as FastifyBaseLogger };
  }

  it('writes a fields-first line as the child would, byte for byte, without making the child', () => {
    const lazy = capture();
    const made = vi.spyOn(lazy.parent, 'child');
    const logger = lazyRequestLogger(lazy.parent, { reqId: 'r-1' }, {});
    logger.info({ method: 'POST', route: '/api/agent/imprint', status: 200, ms: 4.2, bytes: 310 }, 'request');
    expect(made).not.toHaveBeenCalled();

    const real = capture();
    real.parent
      .child({ reqId: 'r-1' })
      .info({ method: 'POST', route: '/api/agent/imprint', status: 200, ms: 4.2, bytes: 310 }, 'request');
    expect(lazy.out).toEqual(real.out);
    expect(JSON.parse(lazy.out[0]!)).toMatchObject({
      reqId: 'r-1',
      route: '/api/agent/imprint',
      msg: 'request',
    });
  });

  it('makes the child for an error, a bare message or a logger of its own level', () => {
    const { out, parent } = capture();
    const made = vi.spyOn(parent, 'child');
    lazyRequestLogger(parent, { reqId: 'r-2' }, {}).error(new Error('boom'), 'request failed');
    lazyRequestLogger(parent, { reqId: 'r-3' }, {}).warn('slow');
    lazyRequestLogger(parent, { reqId: 'r-4' }, { level: 'error' }).info({ a: 1 }, 'hidden');
    expect(made).toHaveBeenCalledTimes(3);
    const lines = out.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.reqId)).toEqual(['r-2', 'r-3']);
    expect((lines[0]!.err as { message: string }).message).toBe('boom');
  });
});
