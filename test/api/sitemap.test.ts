import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

describe('sitemap', () => {
  it('lists only public pages that answer 200 to an anonymous visitor', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    const urls = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
    expect(urls.length).toBeGreaterThan(10);
    const failing: string[] = [];
    for (const url of urls) {
      expect(url.startsWith(TEST_ORIGIN)).toBe(true);
      const page = await t.app.inject({ method: 'GET', url: url.slice(TEST_ORIGIN.length) });
      if (page.statusCode !== 200) failing.push(`${page.statusCode} ${url}`);
    }
    expect(failing).toEqual([]);
    // Nor a page about one visitor (`…/mine`) or a "not found" page, even where it renders 200.
    expect(urls.filter((url) => /\/(mine|missing)$/.test(url))).toEqual([]);
  });
});
