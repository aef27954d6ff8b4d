/**
 * Issue 23: a page's Cache-Control is its registry entry's page class (`policy.page`, else its
 * `cache`: shared/registry/operation.ts), set by the site mount (api/site/page-cache.ts) and never
 * by the page. Every page of site/pages, asked anonymously, signed in (as a steward, so the steward
 * pages answer too) and with a theme cookie, answers with the class its entry declares; the classes
 * that depend on the request (a public page's anonymous form, `?recorded=N` on a receipt, a
 * prerendered page rewritten by the theme) give each request its own; and the headers the pages
 * set by hand before the classes took over are still the ones sent. Needs `npm run build`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAstroPageDetails } from '../../../api/site/page-index.ts';
import { REPO_ROOT } from '../../../api/site/files.ts';
import { cacheControlFor, personalQueryIn } from '../../../shared/http-cache.ts';
import { fillPath } from '../../../shared/registry/index.ts';
import { policyFor } from '../../../shared/registry/policies.ts';
import type { TestApp } from '../../helpers/app.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from '../steward/helpers.ts';

/** Pages Fastify never routes: the mount renders them itself (the error page, a feed read as a page). */
const INTERNAL = new Set(['/error', '/feed-view']);
const PAGES = listAstroPageDetails().filter((page) => !INTERNAL.has(page.route));

let t: TestApp;
let steward: TestSovereign;
let receipt: string;
const params: Record<string, string> = {};

beforeAll(async () => {
  ({ t, steward } = await appWithSteward({ site: true }));
  receipt = (await agentImprint(t.app, 'cache-agent', 'A page for every class.')).receipt_id;
  const tag = readdirSync(join(REPO_ROOT, 'dist', 'client', 'changelog')).find((n) => n !== 'index.html');
  Object.assign(params, {
    id: receipt,
    token: steward.receiptId,
    tag: tag ?? 'unreleased',
    claim: 'axiom-1',
    entity: 'x',
    handle: 'cache-agent',
  });
}, 120_000);
afterAll(async () => t?.close());

const VISITORS = ['anonymous', 'signed in', 'themed'] as const;
type Visitor = (typeof VISITORS)[number];

function cookieOf(visitor: Visitor): string | undefined {
  if (visitor === 'signed in') return steward.cookie;
  return visitor === 'themed' ? 'civitas_theme=dark' : undefined;
}

/** The Cache-Control the page's declared class gives this visitor. */
function declared(template: string, prerendered: boolean, visitor: Visitor, url: string): string {
  const policy = policyFor(`GET ${template}`)?.page;
  if (!policy) throw new Error(`GET ${template} has no registry entry`);
  // A prerendered page is the same file for every visitor but the theme; a rendered one reads the cookie.
  const personal = prerendered
    ? visitor === 'themed'
    : visitor !== 'anonymous' || personalQueryIn(policy, url);
  return cacheControlFor(policy, personal, true).value;
}

const { page: asked } = requests(() => t.app);
/** The page at `url`, asked for by this visitor. */
const get = (url: string, visitor: Visitor = 'anonymous') => asked(url, cookieOf(visitor));

describe('page cache classes', () => {
  it('gives every page of site/pages a registry entry, so every page has a declared class', () => {
    const undeclared = PAGES.filter((page) => !policyFor(`GET ${page.route}`)).map((page) => page.route);
    expect(undeclared).toEqual([]);
  });

  it('sends every page with the class its entry declares, for each visitor', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      const url = fillPath(page.route, params);
      for (const visitor of VISITORS) {
        const res = await get(url, visitor);
        // An error or a redirect is private whatever the class (the security headers, a 303's own rule).
        if (res.statusCode !== 200) continue;
        checked++;
        const want = declared(page.route, page.prerender, visitor, url);
        const got = res.headers['cache-control'];
        if (got !== want) wrong.push(`${url} (${visitor}): ${got}, declared ${want}`);
        const shared = want.startsWith('public');
        if (shared && !/\bcookie\b/i.test(String(res.headers.vary)))
          wrong.push(`${url} (${visitor}): a shared answer without Vary: Cookie`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(250);
  });

  it('keeps the headers the pages set by hand before their classes were declared', async () => {
    const before: Record<string, string> = {
      '/': 'public, max-age=0, s-maxage=15, stale-while-revalidate=60',
      '/imprint': 'public, max-age=0, s-maxage=15, stale-while-revalidate=60',
      '/stats': 'public, max-age=30',
      '/commons': 'public, max-age=30',
      '/ledger': 'public, max-age=30',
      [`/ledger/${receipt}`]: 'public, max-age=60',
      [`/receipt/${receipt}`]: 'public, max-age=60',
      '/witness': 'public, max-age=60',
      '/verify/anchor-chain': 'public, max-age=60',
      '/lexicon': 'public, max-age=300',
      '/receipt/missing': 'public, max-age=300',
      '/trust': 'no-store',
      '/atlas': 'no-store',
      '/collaborate': 'no-cache',
      '/search': 'no-cache',
      '/standing': 'private, no-store',
      '/metabolism': 'private, no-store',
      '/boundaries': 'private, no-store',
      '/expeditions/recovery-paradox': 'private, no-store',
    };
    const sent: Record<string, unknown> = {};
    for (const url of Object.keys(before)) sent[url] = (await get(url)).headers['cache-control'];
    expect(sent).toEqual(before);
    // A public page's shared form is for anonymous requests only.
    for (const url of ['/', '/imprint', '/stats', `/receipt/${receipt}`, '/witness'])
      expect((await get(url, 'signed in')).headers['cache-control'], url).toBe('private, no-store');
  });

  it("makes a receipt private when it answers the visitor's imprint form (?recorded=N)", async () => {
    const answer = await get(`/receipt/${receipt}?recorded=1`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(String(answer.headers.vary ?? '')).not.toMatch(/cookie/i);
    const shared = await get(`/receipt/${receipt}?held=1`);
    expect(shared.headers['cache-control']).toBe('public, max-age=60');
    expect(String(shared.headers.vary)).toMatch(/\bCookie\b/);
  });

  it('keeps a prerendered page public for a signed-in visitor and private once the theme rewrote it', async () => {
    const signedIn = await get('/privacy', 'signed in');
    expect(signedIn.headers['cache-control']).toBe('public, max-age=300');
    expect(signedIn.headers.vary).toMatch(/^Cookie\b/);
    const themed = await get('/privacy', 'themed');
    expect(themed.body).toContain('data-theme="dark"');
    expect(themed.headers['cache-control']).toBe('private, no-store');
  });
});
