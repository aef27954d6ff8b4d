/**
 * People's language: no page a person reads prints an API path in its visible text. Paths, field and
 * schema names belong in the page's "For developers" disclosure (`ForDevelopers.astro`) or on the
 * pages written for developers. Needs `npm run build`.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { actorName, plainSentence, proposalState } from '../../site/lib/plain.ts';

/** Pages written for developers, where paths are the content. */
const DEVELOPER_PAGES = new Set(['/developers', '/atlas', '/changelog']);

const PAGES_DIR = join(import.meta.dirname, '../../site/pages');

/** Every page without a route parameter, as its path. */
function staticPages(dir = PAGES_DIR): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...staticPages(full));
      continue;
    }
    if (!entry.name.endsWith('.astro') || entry.name.includes('[')) continue;
    const route = '/' + relative(PAGES_DIR, full).replace(/\.astro$/, '');
    out.push(route === '/index' ? '/' : route.replace(/\/index$/, ''));
  }
  return out.sort();
}

/** The text a person sees (code included) outside the developer disclosure, scripts and styles. */
function visibleText(html: string): string {
  return html
    .replace(/<details class="for-developers"[\s\S]*?<\/details>/g, ' ')
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x2F;|&#47;/g, '/')
    .replace(/\s+/g, ' ');
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

describe('plain words for raw names', () => {
  it('names actors and proposal states in words, and paths as pages', () => {
    expect(actorName('sovereign:98d8')).toBe('sovereign 98d8');
    expect(actorName('agent:scout')).toBe('agent scout');
    expect(proposalState('proposed')).toBe('Open for cosigning');
    expect(proposalState('cosigned')).toBe('Open for ratification');
    expect(proposalState('ratified')).toBe('Ratified');
    expect(plainSentence('silence, counted under /api/abstentions), so none')).toBe(
      'silence, counted under the abstentions page), so none',
    );
    expect(plainSentence('Verify it and co-sign it with POST /api/witness/mark.')).not.toContain('/api/');
  });
});

describe('people-facing pages', () => {
  it('keep API paths out of the visible text', async () => {
    const offenders: string[] = [];
    for (const url of staticPages()) {
      if (DEVELOPER_PAGES.has(url) || [...DEVELOPER_PAGES].some((p) => url.startsWith(`${p}/`))) continue;
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      if (!(res.headers['content-type'] ?? '').toString().startsWith('text/html')) continue;
      const text = visibleText(res.body);
      const hits = text.match(/.{0,30}\/api\/.{0,30}/g);
      if (hits) offenders.push(`${url}: ${hits.length} × ${hits.join(' | ')}`);
    }
    expect(offenders).toEqual([]);
  });
});
