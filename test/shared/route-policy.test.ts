import { describe, expect, it } from 'vitest';
import { DEFAULT_CACHE, operations, policyOf } from '../../shared/registry/operation.ts';
import { OPERATIONS } from '../../shared/registry/operations.ts';
import { policyFor } from '../../shared/registry/policies.ts';
import { CREDENTIAL_DOORS } from '../../shared/security.ts';
import { cacheControlFor, personalQueryIn } from '../../shared/http-cache.ts';

/**
 * A route's policy is its operation entry's (shared/registry/operation.ts): a method block's
 * `policy`, with the cache class defaulted by method and kind so most entries say nothing, and the
 * page class (what the site mount sends a page with) defaulted to the cache class.
 */
const { api, feed, mutation, page } = operations('record');

describe('route policy', () => {
  it('defaults the cache class by method and kind', () => {
    expect(policyOf(api('/a', 'a'), 'GET').cache).toBe('revalidate');
    expect(policyOf(page('/p', 'p'), 'GET')).toEqual({ cache: 'private', page: 'private' });
    expect(policyOf(feed('/f', 'f'), 'GET').cache).toBe('public-5m');
    expect(policyOf(mutation('/m', 'm'), 'POST').cache).toBe(DEFAULT_CACHE.unsafe);
    expect(policyOf(page('/pp', 'pp', { methods: ['GET', 'POST'] }), 'POST').cache).toBe('private');
  });

  it('keeps what a block declares and fills in only what it leaves out', () => {
    const entry = api('/x', 'x', {
      methods: ['GET', 'POST'],
      GET: { policy: { cache: { anonymous: 'public' } } },
      POST: { policy: { origin: 'form', rawBody: true } },
    });
    const anonymous = { anonymous: 'public' };
    expect(policyOf(entry, 'GET')).toEqual({ cache: anonymous, page: anonymous });
    expect(policyOf(entry, 'POST')).toEqual({
      cache: 'private',
      page: 'private',
      origin: 'form',
      rawBody: true,
    });
  });

  it("keeps a page's own class apart from its JSON twin's", () => {
    const entry = page('/y', 'y', {
      GET: { policy: { cache: 'revalidate', page: { anonymous: 'public-1m' } } },
    });
    expect(policyOf(entry, 'GET')).toEqual({ cache: 'revalidate', page: { anonymous: 'public-1m' } });
    expect(policyFor('GET /receipt/{id}')?.page).toEqual({
      anonymous: 'public-1m',
      personalQuery: ['recorded'],
    });
    expect(policyFor('GET /receipt/{id}')?.cache).toBe('revalidate');
  });

  it("holds a page's public class for its anonymous form only, and a form's answer for its visitor", () => {
    expect(cacheControlFor('public-1m', true, false)).toEqual({
      value: 'public, max-age=60',
      varyCookie: false,
    });
    expect(cacheControlFor('public-1m', false, true)).toEqual({
      value: 'public, max-age=60',
      varyCookie: true,
    });
    expect(cacheControlFor('public-1m', true, true)).toEqual({
      value: 'private, no-store',
      varyCookie: false,
    });
    expect(cacheControlFor({ anonymous: 'revalidate' }, false, false).value).toBe('no-cache');
    expect(cacheControlFor('no-store', true, true)).toEqual({ value: 'no-store', varyCookie: false });
    const receipt = { anonymous: 'public-1m', personalQuery: ['recorded'] } as const;
    expect(personalQueryIn(receipt, '/receipt/r?recorded=3')).toBe(true);
    expect(personalQueryIn(receipt, '/receipt/r?recorded=')).toBe(false);
    expect(personalQueryIn(receipt, '/receipt/r?held=1')).toBe(false);
    expect(personalQueryIn('public-1m', '/receipt/r?recorded=3')).toBe(false);
  });

  it('gives every registry key a policy, and every credential door its origin rule', () => {
    for (const entry of OPERATIONS)
      for (const method of entry.methods)
        expect(policyFor(`${method} ${entry.path}`), `${method} ${entry.path}`).toBeDefined();
    for (const path of CREDENTIAL_DOORS) expect(policyFor(`POST ${path}`)?.origin, path).toBe('credential');
  });
});
