/**
 * Issue 10 point 9: every URL that answers HTML or JSON by `Accept` sends `Vary: Accept` and a
 * `Cache-Control` on each variant; an unknown /changelog/{tag} is a 404. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { PUBLISHED_ROUTES, isStaticPlaceholder } from '../../../shared/registry/index.ts';
import { withVary } from '../../../api/plugins/negotiation.ts';
import { firstOf } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

const typeOf = (header: unknown) => firstOf(String(header ?? '').split(';')).trim();
const varies = (header: unknown) =>
  String(header ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .includes('accept');

describe('hybrids vary by Accept', () => {
  it('sends Vary: Accept and a Cache-Control on both variants of every URL that answers HTML or JSON', async () => {
    const negotiated: string[] = [];
    const problems: string[] = [];
    for (const shape of PUBLISHED_ROUTES) {
      if (isStaticPlaceholder(shape.path) || !shape.methods.includes('GET')) continue;
      const url = shape.path.replace(/\{[a-z]+\}/g, 'zz-probe');
      const html = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' },
      });
      const json = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      if (!(
        typeOf(html.headers['content-type']) === 'text/html' &&
        typeOf(json.headers['content-type']) === 'application/json'
      ))
        continue;
      if (json.statusCode >= 400 && html.statusCode >= 400) continue;
      negotiated.push(shape.path);
      for (const [name, res] of [
        ['html', html],
        ['json', json],
      ] as const) {
        if (!varies(res.headers.vary)) problems.push(`${shape.path} (${name}): Vary is ${res.headers.vary}`);
        if (!res.headers['cache-control']) problems.push(`${shape.path} (${name}): no Cache-Control`);
      }
    }
    expect(problems).toEqual([]);
    for (const path of ['/commons', '/imprint', '/standing', '/identity', '/calibration'])
      expect(negotiated, path).toContain(path);
  }, 300_000);

  it('keeps /commons HTML publicly cacheable, now with Vary: Accept, and its JSON apart', async () => {
    const html = await t.app.inject({ method: 'GET', url: '/commons', headers: { accept: 'text/html' } });
    const json = await t.app.inject({
      method: 'GET',
      url: '/commons',
      headers: { accept: 'application/json' },
    });
    expect(html.headers['cache-control']).toBe('public, max-age=30');
    expect(varies(html.headers.vary)).toBe(true);
    expect(varies(json.headers.vary)).toBe(true);
    expect(json.headers['cache-control']).toBeDefined();
  });

  it('merges Accept into an existing Vary without repeating it', () => {
    expect(withVary('Cookie', 'Accept')).toBe('Cookie, Accept');
    expect(withVary('cookie, accept', 'Accept')).toBe('cookie, accept');
    expect(withVary(undefined, 'Accept')).toBe('Accept');
    expect(withVary('*', 'Accept')).toBe('*');
  });
});

describe('/changelog/{tag}', () => {
  it('answers 404 for an unknown tag and 200 for a release that exists', async () => {
    for (const accept of ['text/html', 'application/json']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/changelog/no-such-release',
        headers: { accept },
      });
      expect(res.statusCode, accept).toBe(404);
    }
    const index = await t.app.inject({ method: 'GET', url: '/changelog', headers: { accept: 'text/html' } });
    const first = /href="\/changelog\/([^"]+)"/.exec(index.body)?.[1];
    expect(first).toBeDefined();
    expect((await t.app.inject({ method: 'GET', url: `/changelog/${first}` })).statusCode).toBe(200);
  });
});
