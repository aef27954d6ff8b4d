/**
 * The list pages link their pages (issue 20, point 6): /ledger, /censuses, /citizens and /search follow the
 * JSON's `next` and `previous` under their own path, and walking the page links forward lists
 * what the JSON lists; /search names the stemmed terms it searched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { decodeHtml } from '../../helpers/html.ts';
import { runCensusJob } from '../../../api/people/census.ts';
import { at } from '../../helpers/elements.ts';

const built = existsSync(new URL('../../../dist/server/entry.mjs', import.meta.url));
let t: TestApp;
beforeAll(async () => {
  if (!built) return;
  t = await createTestApp({ site: true });
  t.clock.set('2026-04-01T10:00:00.000Z');
  for (let i = 0; i < 5; i++) await agentImprint(t.app, `list-page-${i}`, `my receipts, number ${i}`);
  t.clock.set('2026-04-06T10:00:00.000Z');
  await runCensusJob(t.app.civitas);
});
afterAll(async () => t?.close());

const { page: html } = requests(() => t.app);
const link = (body: string, rel: string) => {
  const found = body.match(new RegExp(`<a href="([^"]+)" rel="${rel}"`));
  return found ? decodeHtml(at(found, 1)) : null;
};

/** Every receipt id or date the page shows, walking its rel=next links from `first`. */
async function walk(first: string, pattern: RegExp) {
  const seen: string[] = [];
  let url: string | null = first;
  for (let pages = 0; url && pages < 50; pages++) {
    const res = await html(url);
    expect(res.statusCode, url).toBe(200);
    if (pages > 0) expect(link(res.body, 'prev'), url).not.toBeNull();
    seen.push(...[...res.body.matchAll(pattern)].map((m) => at(m, 1)));
    url = link(res.body, 'next');
  }
  return seen;
}

describe.skipIf(!built)('list pages link their pages', () => {
  it('/ledger walks every receipt by its Older receipts links', async () => {
    const ids = await t.database.db.query<{ id: string }>('select id from receipts order by id desc');
    const shown = await walk('/ledger?limit=3', /<a href="\/ledger\/(rcpt_[0-9A-Za-z]+)"/g);
    expect(shown).toEqual(ids.map((r) => r.id));
  });

  it('/censuses walks every census by its Older censuses links', async () => {
    const res = await html('/censuses?limit=2');
    expect(link(res.body, 'next')).toMatch(/^\/censuses\?limit=2&after=/);
    const dates = await t.database.db.query<{ d: string }>(
      `select to_char(date, 'YYYY-MM-DD') as d from census_snapshots order by date desc`,
    );
    const shown = await walk('/censuses?limit=2', /<th scope="row">(\d{4}-\d{2}-\d{2})<\/th>/g);
    expect(shown).toEqual(dates.map((r) => r.d));
  });

  it('/citizens walks every agent by its Next page links, and back', async () => {
    const handles = await t.database.db.query<{ handle: string }>(
      'select handle from agents order by handle',
    );
    const shown = await walk('/citizens?kind=agent&limit=2', /<code class="token">([a-z0-9-]+)<\/code>/g);
    expect(shown).toEqual(handles.map((r) => r.handle));
  });

  it('/search names the stemmed terms and pages its results', async () => {
    const res = await html('/search?q=receipt&limit=2');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<strong>receipt</strong>');
    expect(res.body).toContain('5 results');
    expect(link(res.body, 'next')).toMatch(/^\/search\?q=receipt&limit=2&after=/);
    expect((await html('/search?q=receipt&after=bm9wZQ')).statusCode).toBe(400);
  });
});
