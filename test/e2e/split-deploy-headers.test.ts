/**
 * The split deploy's site server answers with the one-origin server's security headers: one API
 * process serving the site (the one-origin server) and the site server relaying to it, asked the
 * same paths, answer each security header (and the Cache-Control of an error or a redirect) alike,
 * header by header. A cross-origin form post is refused through the site server exactly as the API
 * refuses it directly: the relay passes Origin and Sec-Fetch-Site on for the API to judge.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  processStore,
  startApiProcess,
  startProcess,
  type ProcessStore,
  type RunningProcess,
} from '../helpers/processes.ts';
import { readAssetsManifest } from '../../api/site/files.ts';

const SECRET = 'split-deploy-secret-for-tests';
const ORIGIN = 'http://civitas.test';
let oneOrigin: RunningProcess;
let site: RunningProcess;
let store: ProcessStore | undefined;

beforeAll(async () => {
  store = await processStore();
  oneOrigin = await startApiProcess({
    ...store.env,
    CIVITAS_TEST_SITE: '1',
    CIVITAS_ORIGIN: ORIGIN,
    CIVITAS_TRUST_PROXY: '127.0.0.1',
    CIVITAS_SITE_SECRET: SECRET,
  });
  site = await startProcess(fileURLToPath(new URL('../helpers/site-server.ts', import.meta.url)), {
    CIVITAS_API_URL: oneOrigin.url,
    CIVITAS_TRUST_PROXY: '127.0.0.1',
    CIVITAS_SITE_SECRET: SECRET,
  });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await oneOrigin?.stop();
  await store?.remove();
});

/** What api/plugins/security-headers.ts sets, and the Cache-Control it forces on errors and 303s. */
const SECURITY_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'permissions-policy',
  'cache-control',
] as const;

const BROWSER = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

async function both(path: string, init: RequestInit = {}) {
  const ask = (base: string) => fetch(`${base}${path}`, { redirect: 'manual', ...init });
  const [one, split] = await Promise.all([ask(oneOrigin.url), ask(site.url)]);
  await Promise.all([one.arrayBuffer(), split.arrayBuffer()]);
  return { one, split };
}

const headersOf = (res: Response) =>
  Object.fromEntries(SECURITY_HEADERS.map((name) => [name, res.headers.get(name)]));

describe("the site server's own answers carry the one-origin server's security headers", () => {
  const missingEntry = `/ledger/rcpt_01JD${'0'.repeat(22)}`;
  const samples: [string, string, number][] = [
    ['a prerendered page', '/privacy', 200],
    ['a rendered page', '/status', 200],
    ['a rendered page answering 404', missingEntry, 404],
    ['a rendered page sending its visitor on', '/sovereign', 303],
    ['a stylesheet', readAssetsManifest().theme, 200],
    ['an image', '/og.png', 200],
  ];

  it.each(samples)('%s (%s)', async (_what, path, status) => {
    const { one, split } = await both(path, { headers: BROWSER });
    expect([one.status, split.status]).toEqual([status, status]);
    // Each header on its own line of the diff: a difference names the header.
    expect(headersOf(split)).toEqual(headersOf(one));
    expect(split.headers.get('content-security-policy')).toBeTruthy();
    expect(split.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('an error or redirect it makes is kept by no shared cache, whatever the page class', async () => {
    for (const path of [missingEntry, '/sovereign']) {
      const { split } = await both(path, { headers: BROWSER });
      expect(split.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('a relayed answer keeps the headers the API gave it', async () => {
    const { one, split } = await both('/api/version');
    expect(split.status).toBe(200);
    expect(headersOf(split)).toEqual(headersOf(one));
    // A data answer: the API's short policy, no document headers.
    expect(split.headers.get('x-frame-options')).toBeNull();
  });
});

describe('cross-origin form posts through the site server', () => {
  const form = (headers: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: 'theme=dark&return_to=%2F',
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Origin: null', { origin: 'null' }],
  ])('refused as the API refuses it (%s)', async (_what, headers) => {
    const { one, split } = await both('/theme', form(headers));
    expect([one.status, split.status]).toEqual([403, 403]);
    const [a, b] = await Promise.all([
      fetch(`${oneOrigin.url}/theme`, form(headers)).then((r) => r.json()),
      fetch(`${site.url}/theme`, form(headers)).then((r) => r.json()),
    ]);
    expect(b).toEqual(a);
    expect(b).toMatchObject({ ok: false, reason: 'cross_origin_refused' });
    expect(split.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    ['its own Origin', { origin: ORIGIN }],
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
  ])('accepted from the service itself (%s): the API saw the header', async (_what, headers) => {
    const { one, split } = await both('/theme', form(headers));
    expect([one.status, split.status]).toEqual([303, 303]);
    expect(split.headers.get('location')).toBe(one.headers.get('location'));
    expect(split.headers.get('set-cookie')).toMatch(/theme=dark/);
  });
});
