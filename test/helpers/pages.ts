/**
 * Checks for pages rendered by the one-origin server (site built by `npm run build`), shared by
 * the families' page tests.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { htmlHeaders } from './builders.ts';

/**
 * A script element with inline content other than the two hash-allowed enhancements of
 * shared/site-scripts.ts (the signed-in indicator and the copy buttons): pages carry no other.
 */
export const INLINE_SCRIPT =
  /<script(?![^>]*src=)[^>]*>(?!\(\(\)=>\{(?:const slot=|for\(const button of document\.querySelectorAll\('button\[data-copy\]'\)))[^<]+<\/script>/;

/** A browser navigation to `url`, checked to be a rendered page: 200, HTML, a heading, a main landmark. Returns its body. */
export async function renderedPage(app: FastifyInstance, url: string, cookie?: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url, headers: htmlHeaders(cookie) });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type'], url).toContain('text/html');
  expect(res.body, url).toContain('<h1');
  expect(res.body, url).toContain('<main');
  return res.body;
}
