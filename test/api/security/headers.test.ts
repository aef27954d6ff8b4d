/**
 * Response headers of issue 19 point 4: Cross-Origin-Resource-Policy on every answer (`cross-origin`
 * only on images made to be embedded), CSP `base-uri 'none'`, Cache-Control on the reads that had
 * none, and no error answer a shared cache may keep.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.ts';
import { keepsOutOfSharedCaches } from '../../../shared/boundaries/headers/cache.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let receiptId: string;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  receiptId = (await agentImprint(t.app, 'header-agent', 'words with a receipt')).receipt_id;
});
afterAll(() => t?.close());

const { get, raw } = requests(() => t.app);

describe('Cross-Origin-Resource-Policy', () => {
  it('is same-origin on data, documents and errors', async () => {
    for (const url of [
      '/api/stats',
      '/agents.json',
      '/api/agent/nobody-here',
      '/no/such/path',
      '/robots.txt',
    ]) {
      expect((await get(url)).headers['cross-origin-resource-policy'], url).toBe('same-origin');
    }
    const post = await t.app.inject({ method: 'POST', url: '/api/quick-imprint', payload: {} });
    expect(post.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('is cross-origin on the cards and badges made to be embedded', async () => {
    for (const url of ['/badge.svg', '/calibration/card.svg', `/receipt/${receiptId}/card.svg`]) {
      const res = await raw(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^image\//);
      expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
    }
  });
});

describe('Content-Security-Policy', () => {
  it("lets no page re-root its links: base-uri 'none', and no page sets <base>", async () => {
    for (const url of ['/', '/lexicon', '/status', '/imprint', '/no/such/page', '/badge.svg']) {
      const res = await raw(url, { accept: 'text/html' });
      expect(String(res.headers['content-security-policy']), url).toContain("base-uri 'none'");
      expect(res.body, url).not.toMatch(/<base[\s>]/i);
    }
  });
});

describe('Cache-Control', () => {
  it('is set on a receipt, the agent directory, GET /mcp and a JSON 404', async () => {
    for (const url of [`/api/receipt/${receiptId}`, '/agents.json', '/mcp']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBeTruthy();
    }
    const unknownReceipt = receiptId.slice(0, -1) + (receiptId.endsWith('0') ? '1' : '0');
    for (const url of [`/api/receipt/${unknownReceipt}`, '/no/such/path', '/api/agent/nobody-here']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(keepsOutOfSharedCaches(res.headers['cache-control']), url).toBe(true);
    }
  });
});

describe('error answers and shared caches', () => {
  let app: FastifyInstance;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({
      db: database.db,
      site: false,
      config: { origin: TEST_ORIGIN, rateReadsPerMin: 3, rateWritesPerMin: 3, dataDir: '/nonexistent' },
    });
    // A public read that fails: a 500 must not be kept for everyone either.
    app.get('/__failing', { config: { cacheClass: 'public' } }, () => {
      throw new Error('a failure for the test');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('keeps a 429 and a 500 of public reads out of shared caches', async () => {
    const failing = await app.inject({
      method: 'GET',
      url: '/__failing',
      headers: { 'x-forwarded-for': '1' },
    });
    expect(failing.statusCode).toBe(500);
    expect(keepsOutOfSharedCaches(failing.headers['cache-control'])).toBe(true);
    let limited = await app.inject({ method: 'GET', url: '/api/stats' });
    for (let i = 0; i < 10 && limited.statusCode !== 429; i++)
      limited = await app.inject({ method: 'GET', url: '/api/stats' });
    expect(limited.statusCode).toBe(429);
    expect(keepsOutOfSharedCaches(limited.headers['cache-control'])).toBe(true);
    expect(String(limited.headers['cache-control'])).not.toMatch(/public|s-maxage/);
  });
});
