/**
 * Walks a list that pages by key (api/paging.ts) through its links: forward from the first page
 * along `next`, and back from the last along `previous`.
 */
import { expect } from 'vitest';

export interface PageBody {
  next: string | null;
  previous: string | null;
  limit: number;
}

type Get = (url: string) => Promise<{ statusCode: number; body: string; json(): unknown }>;

/**
 * Every item from `first` to the end, following `next`; `between(page)` runs after each page
 * (e.g. new rows arriving). Each page holds at most `limit` items.
 */
export async function walkForward<T>(
  get: Get,
  first: string,
  itemsOf: (body: PageBody) => T[],
  between?: (page: number) => Promise<void>,
): Promise<{ items: T[]; pages: number; last: string }> {
  const items: T[] = [];
  let url: string | null = first;
  let last = first;
  let pages = 0;
  while (url && pages < 200) {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as PageBody;
    const page = itemsOf(body);
    expect(page.length).toBeLessThanOrEqual(body.limit);
    if (pages === 0) expect(body.previous).toBeNull();
    items.push(...page);
    pages++;
    last = url;
    await between?.(pages);
    url = body.next;
  }
  expect(url).toBeNull();
  return { items, pages, last };
}

/** Every item from the page at `last` back to the first, following `previous`, in the list's order. */
export async function walkBack<T>(get: Get, last: string, itemsOf: (body: PageBody) => T[]): Promise<T[]> {
  const pages: T[][] = [];
  let url: string | null = last;
  while (url && pages.length < 200) {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as PageBody;
    pages.unshift(itemsOf(body));
    url = body.previous;
  }
  expect(url).toBeNull();
  return pages.flat();
}

/** A cursor of the right form and the wrong content, and others that are not cursors at all. */
export const BAD_CURSORS = [
  '%21%21',
  'bm9wZQ',
  Buffer.from('["x",1]').toString('base64url'),
  Buffer.from('["n"]').toString('base64url'),
  Buffer.from('["n",{"a":1},2,3]').toString('base64url'),
];

/**
 * Each cursor (BAD_CURSORS unless given) refused by the list at `path` (which may carry its own
 * query) with a 400 naming `after`, never a database error.
 */
export async function expectCursorsRefused(get: Get, path: string, cursors: readonly string[] = BAD_CURSORS) {
  for (const cursor of cursors) {
    const res = await get(`${path}${path.includes('?') ? '&' : '?'}after=${cursor}`);
    expect(res.statusCode, cursor).toBe(400);
    expect((res.json() as { issues: { path: string }[] }).issues[0]!.path, cursor).toBe('after');
  }
}

/** The same link as a page writes it in HTML (`&` as `&amp;`), as a pattern. */
const linkPattern = (path: string, rel: 'next' | 'prev', capture: boolean) => {
  const link = `${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\?limit=2&amp;after=[^"]+`;
  return new RegExp(`<a href="${capture ? `(${link})` : link}" rel="${rel}">`);
};

/**
 * A list's page at `path` (HTML, two items a page): its first page links to the next, which links
 * back, and a cursor the list did not make is a 400 that offers the first page. Answers the first page.
 */
export async function expectPageLinks(page: Get, path: string) {
  const first = await page(`${path}?limit=2`);
  expect(first.statusCode).toBe(200);
  const next = linkPattern(path, 'next', true).exec(first.body)?.[1];
  expect(next, `a next link on ${path}`).toBeDefined();
  const second = await page(next!.replaceAll('&amp;', '&'));
  expect(second.statusCode).toBe(200);
  expect(second.body).toMatch(linkPattern(path, 'prev', false));
  const bad = await page(`${path}?after=${BAD_CURSORS[1]}`);
  expect(bad.statusCode).toBe(400);
  expect(bad.body).toContain('Start from the first page');
  return first;
}
