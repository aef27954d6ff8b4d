import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** The one-origin server: pages, assets and API from one Fastify app (site built by `npm run build`). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

describe('one origin', () => {
  it('renders a live page from the API in process', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/status' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('All systems operating');
    expect(res.headers['strict-transport-security']).toBeTruthy();
    expect(res.headers['content-security-policy']).toBeTruthy();
  });

  it('serves prerendered pages, the hashed stylesheet and font, og images and favicons', async () => {
    const assets = t.app.site!.assets;
    expect(assets.theme).toMatch(/^\/theme\.[\w-]+\.css$/);
    for (const url of [
      '/lexicon',
      '/legal',
      '/legal/proprietary',
      '/developers',
      '/changelog',
      '/privacy',
      '/terms',
      '/contact',
      '/ip',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
    }
    for (const url of [assets.theme, assets.font, '/og.png', '/og.svg', '/favicon.ico', '/favicon.svg']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: assets.theme })).headers['cache-control']).toContain(
      'immutable',
    );
  });

  it('publishes the concrete hashed asset names in /openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toContain(t.app.site!.assets.theme);
  });
});
