import { describe, expect, it } from 'vitest';
import { DEFAULT_CACHE, operations, policyOf } from '../../shared/registry/operation.ts';
import { OPERATIONS } from '../../shared/registry/operations.ts';
import { policyFor } from '../../shared/registry/policies.ts';
import { CREDENTIAL_DOORS } from '../../shared/security.ts';

/**
 * A route's policy is its operation entry's (shared/registry/operation.ts): a method block's
 * `policy`, with the cache class defaulted by method and kind so most entries say nothing.
 */
const { api, feed, mutation, page } = operations('record');

describe('route policy', () => {
  it('defaults the cache class by method and kind', () => {
    expect(policyOf(api('/a', 'a'), 'GET')).toEqual({ cache: 'revalidate' });
    expect(policyOf(page('/p', 'p'), 'GET')).toEqual({ cache: 'private' });
    expect(policyOf(feed('/f', 'f'), 'GET')).toEqual({ cache: 'public-5m' });
    expect(policyOf(mutation('/m', 'm'), 'POST')).toEqual({ cache: DEFAULT_CACHE.unsafe });
    expect(policyOf(page('/pp', 'pp', { methods: ['GET', 'POST'] }), 'POST')).toEqual({ cache: 'private' });
  });

  it('keeps what a block declares and fills in only what it leaves out', () => {
    const entry = api('/x', 'x', {
      methods: ['GET', 'POST'],
      GET: { policy: { cache: { anonymous: 'public' } } },
      POST: { policy: { origin: 'form', rawBody: true } },
    });
    expect(policyOf(entry, 'GET')).toEqual({ cache: { anonymous: 'public' } });
    expect(policyOf(entry, 'POST')).toEqual({ cache: 'private', origin: 'form', rawBody: true });
  });

  it('gives every registry key a policy, and every credential door its origin rule', () => {
    for (const entry of OPERATIONS)
      for (const method of entry.methods)
        expect(policyFor(`${method} ${entry.path}`), `${method} ${entry.path}`).toBeDefined();
    for (const path of CREDENTIAL_DOORS) expect(policyFor(`POST ${path}`)?.origin, path).toBe('credential');
  });
});
