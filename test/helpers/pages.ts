/**
 * Checks for pages rendered by the one-origin server (site built by `npm run build`), shared by
 * the families' page tests.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { htmlHeaders } from './builders.ts';
import { COPY_SCRIPT, VIEWER_SCRIPT } from '../../shared/site-scripts.ts';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A script element with inline content other than the hash-allowed enhancements of
 * shared/site-scripts.ts, whole and exact (the signed-in indicator, the copy buttons): pages carry no other.
 */
export const INLINE_SCRIPT = new RegExp(
  `<script(?![^>]*src=)[^>]*>(?!(?:${[VIEWER_SCRIPT, COPY_SCRIPT].map(escaped).join('|')})</script>)[^<]+</script>`,
);

/** A browser navigation to `url`, checked to be a rendered page: 200, HTML, a heading, a main landmark. Returns its body. */
export async function renderedPage(app: FastifyInstance, url: string, cookie?: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url, headers: htmlHeaders(cookie) });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type'], url).toContain('text/html');
  expect(res.body, url).toContain('<h1');
  expect(res.body, url).toContain('<main');
  return res.body;
}
