/**
 * HTTP caching of reads: ETags (weak on answers that may be sent coded) and 304s, Cache-Control by cache class (public reads a CDN
 * may keep; cookie-setting answers never), /openapi.json from the registry with a stable ETag,
 * and request logging that still writes server errors while dropping per-request chatter.
 */
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.ts';
import { buildOpenApi } from '../../../shared/openapi.ts';
import { PUBLISHED_ROUTES } from '../../../shared/registry/index.ts';
import { APP_VERSION } from '../../../api/config.ts';
import { pickCoding } from '../../../api/discovery/routes.ts';
import { etagMatches } from '../../../api/plugins/http-cache.ts';
import { createTestApp, TEST_ORIGIN, TestClock, type TestApp } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';

describe('ETag and 304 on public reads', () => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await createTestApp();
    const arrived = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'etag-agent', body: 'Cache me if you can.' },
    });
    expect(arrived.statusCode).toBe(200);
    secret = arrived.json().continuity_secret;
  });
  afterAll(() => t.close());

  it('gives an agent status an ETag and public Cache-Control, and 304 with no body when it still matches', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/agent/etag-agent' });
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    // Over 1 KB, so it may be sent br or gzip: one weak tag for every coding (api/plugins/compression.ts).
    expect(first.rawPayload.length).toBeGreaterThan(1024);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toMatch(/public/);
    expect(first.headers['cache-control']).toMatch(/s-maxage=\d+/);
    expect(first.headers['cache-control']).toMatch(/stale-while-revalidate=\d+/);

    const again = await t.app.inject({
      method: 'GET',
      url: '/api/agent/etag-agent',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    const other = await t.app.inject({
      method: 'GET',
      url: '/api/agent/etag-agent',
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.json().ok).toBe(true);
  });

  it('changes the ETag when the answer changes', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/agent/etag-agent' });
    t.clock.advance(60_000);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'etag-agent', body: 'And again, a minute later.', continuity: secret },
    });
    expect(second.statusCode).toBe(200);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/agent/etag-agent',
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.body).not.toBe(before.body);
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('puts public cache headers on stats and presence, and never a validator on no-store answers', async () => {
    for (const url of ['/api/stats', '/api/presence']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toMatch(/^public, .*s-maxage=/);
      expect(res.headers.etag, url).toBeDefined();
    }
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.headers['cache-control']).toBe('no-store');
    expect(health.headers.etag).toBeUndefined();
    const census = await t.app.inject({ method: 'GET', url: '/api/boundaries' });
    expect(census.headers['cache-control']).toBe('no-store');
    expect(census.headers.etag).toBeUndefined();
  });

  it('keeps a cookie-setting answer private, no-store and without an ETag', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/theme',
      headers: { origin: TEST_ORIGIN },
      payload: { theme: 'dark' },
    });
    expect(res.headers['set-cookie']).toBeDefined();
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.etag).toBeUndefined();
  });

  it('serves /openapi.json from the registry with one ETag per process, and 304 on revalidation', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(first.body)).toEqual(
      buildOpenApi(PUBLISHED_ROUTES, { origin: TEST_ORIGIN, version: APP_VERSION, assets: undefined }),
    );
    const second = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(second.headers.etag).toBe(first.headers.etag);
    const revalidated = await t.app.inject({
      method: 'GET',
      url: '/openapi.json',
      headers: { 'if-none-match': `W/${first.headers.etag}, "x"` },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('serves /openapi.json brotli or gzip when asked, the same document, each coding with its own ETag', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const br = await t.app.inject({
      method: 'GET',
      url: '/openapi.json',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/openapi.json',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    const revalidated = await t.app.inject({
      method: 'GET',
      url: '/openapi.json',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(pickCoding('identity, *;q=0')).toBe('identity');
    expect(pickCoding('*')).toBe('br');
  });
});

describe('etagMatches', () => {
  it('compares weakly over a list and honours *', () => {
    expect(etagMatches('"a", "b"', '"b"')).toBe(true);
    expect(etagMatches('W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"a"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('request logging', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('writes one access line per request (route template, no raw URL) and server errors with their stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
        done();
      },
    });
    const app = await buildApp({
      db: database.db,
      clock: new TestClock(),
      site: false,
      logger: true,
      logStream,
      config: { origin: TEST_ORIGIN, dataDir: '/nonexistent', logLevel: 'info' },
    });
    app.get('/test-only/boom/:secret', async () => {
      throw new Error('the disk is on fire');
    });
    await app.ready();
    try {
      const ok = await app.inject({ method: 'GET', url: '/api/stats' });
      expect(ok.statusCode).toBe(200);
      // The access log (CIVITAS_ACCESS_LOG_SAMPLE, every request by default): one line, nothing else.
      expect(lines.filter((line) => line.reqId !== undefined)).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'request',
          method: 'GET',
          route: '/api/stats',
          status: 200,
        }),
      ]);

      const boom = await app.inject({ method: 'GET', url: '/test-only/boom/hunter2' });
      expect(boom.statusCode).toBe(500);
      const failure = lines.find((line) => line.msg === 'request answered with a server error');
      expect(failure).toMatchObject({
        level: 50,
        method: 'GET',
        route: '/test-only/boom/:secret',
        status: 500,
      });
      // The request's logger is made on first use, bound to its request id like Fastify's own.
      expect(failure?.reqId).toEqual(expect.any(String));
      expect(lines.some((line) => line.msg === 'request failed')).toBe(true);
      expect(JSON.stringify(lines)).not.toContain('hunter2');
    } finally {
      await app.close();
    }
  });
});
