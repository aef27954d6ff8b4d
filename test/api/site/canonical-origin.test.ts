/** Canonical and og URLs name the configured origin, never the request's Host header. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(() => t?.close());

describe('canonical URLs', () => {
  it('use the configured origin whatever Host the request named', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/status', headers: { host: 'evil.example' } });
    expect(page.statusCode).toBe(200);
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(page.body)?.[1];
    const og = /<meta property="og:url" content="([^"]+)"/.exec(page.body)?.[1];
    expect(canonical).toBe(`${TEST_ORIGIN}/status`);
    expect(og).toBe(`${TEST_ORIGIN}/status`);
    expect(page.body).not.toContain('evil.example');
  });
});
