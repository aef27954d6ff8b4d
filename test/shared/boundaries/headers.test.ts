import { describe, expect, it } from 'vitest';
import {
  cacheControlForCredentialResponse,
  cacheControlForPersonalized,
  keepsOutOfSharedCaches,
} from '../../../shared/boundaries/headers/cache.ts';
import {
  HEADER_PROBE_PLANS,
  headerProbeFromInject,
  type ProbeRequest,
  type ProbeResponse,
} from '../../../shared/boundaries/headers/live-probes.ts';
import { safeReturnTarget } from '../../../shared/boundaries/headers/navigation.ts';
import { isSameOriginRequest } from '../../../shared/boundaries/headers/provenance.ts';
import { claimsConnection, hstsHeader } from '../../../shared/boundaries/headers/transport.ts';
import { HEADER_BOUNDARY_KEYS } from '../../../shared/boundaries/keys.ts';
import { HOSTILE_RETURN_TARGETS } from '../../../shared/boundaries/probes/headers.ts';

describe('safeReturnTarget', () => {
  it('keeps local paths with their query and fragment', () => {
    expect(safeReturnTarget('/sovereign?x=1')).toBe('/sovereign?x=1');
    expect(safeReturnTarget('/')).toBe('/');
    expect(safeReturnTarget('/receipt/rcpt_01J?tab=proof#leaf')).toBe('/receipt/rcpt_01J?tab=proof#leaf');
    expect(safeReturnTarget('/search?q=hello%20world')).toBe('/search?q=hello%20world');
    expect(safeReturnTarget('/a/../imprint')).toBe('/imprint');
  });

  const nasty = [
    ...HOSTILE_RETURN_TARGETS,
    '//evil.example',
    '/\\evil.example',
    '\\/evil.example',
    'http://evil.example',
    'https://evil.example/path',
    'javascript:alert(document.cookie)',
    'vbscript:x',
    '/%2F%2Fevil.example',
    '/%2F%5Cevil.example',
    '/%25%32%46%25%32%46evil.example',
    '%2525252F',
    '/\u0009/evil.example',
    '/\r\n/evil.example',
    '/ok\u0085',
    '/ok\u2028',
    '/%E0%A4%A',
    `/${'a'.repeat(3000)}`,
  ];
  for (const value of nasty) {
    it(`refuses ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`, () => {
      expect(safeReturnTarget(value)).toBeNull();
    });
  }

  it('refuses what is not a string', () => {
    for (const value of [null, undefined, 42, ['/'], { toString: () => '/' }])
      expect(safeReturnTarget(value)).toBeNull();
  });
});

describe('isSameOriginRequest', () => {
  const serviceOrigin = 'https://civitas.example';
  it('accepts the service origin, with or without default port, and Sec-Fetch-Site alone', () => {
    expect(isSameOriginRequest({ origin: 'https://civitas.example', serviceOrigin })).toBe(true);
    expect(isSameOriginRequest({ origin: 'https://CIVITAS.example:443', serviceOrigin })).toBe(true);
    expect(isSameOriginRequest({ secFetchSite: 'same-origin', serviceOrigin })).toBe(true);
    expect(isSameOriginRequest({ origin: 'http://localhost:3000', host: 'localhost:3000' })).toBe(true);
  });

  it('refuses forged, lookalike, opaque, contradictory and evidence-free requests', () => {
    const refused = [
      { origin: 'https://evil.example' },
      { origin: 'https://civitas.example.evil.example' },
      { origin: 'https://evil.example/https://civitas.example' },
      { origin: 'https://civitas.example@evil.example' },
      { origin: 'http://civitas.example' },
      { origin: 'https://civitas.example:8443' },
      { origin: 'null' },
      { origin: 'https://civitas.example', secFetchSite: 'cross-site' },
      { secFetchSite: 'same-site' },
      { secFetchSite: 'none' },
      {},
    ];
    for (const request of refused)
      expect(isSameOriginRequest({ ...request, serviceOrigin }), JSON.stringify(request)).toBe(false);
    expect(isSameOriginRequest({ origin: 'https://evil.example', host: 'civitas.example' })).toBe(false);
    expect(isSameOriginRequest({ origin: 'https://civitas.example' })).toBe(false);
  });
});

describe('cache and transport policy', () => {
  it('keeps credential responses and personalized pages out of shared caches', () => {
    expect(keepsOutOfSharedCaches(cacheControlForCredentialResponse())).toBe(true);
    expect(keepsOutOfSharedCaches(cacheControlForPersonalized())).toBe(true);
    for (const weak of [
      'no-store',
      'private',
      'public, max-age=60',
      'private, no-store, s-maxage=10',
      undefined,
    ])
      expect(keepsOutOfSharedCaches(weak)).toBe(false);
  });

  it('claims the connection for at least a year, subdomains included', () => {
    expect(claimsConnection(hstsHeader())).toBe(true);
    for (const weak of ['max-age=300; includeSubDomains', 'max-age=63072000', 'includeSubDomains', '', null])
      expect(claimsConnection(weak)).toBe(false);
  });
});

describe('live header probes', () => {
  const serviceOrigin = 'https://civitas.example';
  /** A well-behaved app, answering each plan's request the way the policy says. */
  const goodApp = async (request: ProbeRequest): Promise<ProbeResponse> => {
    const hsts = { 'strict-transport-security': hstsHeader() };
    if (request.url === '/signout') return { statusCode: 403, headers: hsts };
    if (request.url === '/theme')
      return {
        statusCode: 303,
        headers: { ...hsts, location: '/', 'set-cookie': 'theme=dark', 'cache-control': 'private, no-store' },
      };
    return { statusCode: 200, headers: { ...hsts, 'cache-control': 'private, no-store' } };
  };

  it('describes a request for each header boundary', () => {
    expect(Object.keys(HEADER_PROBE_PLANS).sort()).toEqual([...HEADER_BOUNDARY_KEYS].sort());
    for (const key of HEADER_BOUNDARY_KEYS)
      expect(HEADER_PROBE_PLANS[key].description.length).toBeGreaterThan(20);
    expect(HEADER_PROBE_PLANS.request_provenance.request(serviceOrigin).headers.origin).not.toBe(
      serviceOrigin,
    );
    expect(HEADER_PROBE_PLANS.set_cookie_replay.request(serviceOrigin).headers.origin).toBe(serviceOrigin);
  });

  it('passes a well-behaved app on all five', async () => {
    const probe = headerProbeFromInject(goodApp, serviceOrigin);
    for (const key of HEADER_BOUNDARY_KEYS) expect(await probe(key), key).toMatchObject({ ok: true });
  });

  it('fails an app that forgets a header, follows a forged request or redirects off-origin', async () => {
    const badApp = async (request: ProbeRequest): Promise<ProbeResponse> => {
      if (request.url === '/signout')
        return { statusCode: 303, headers: { 'set-cookie': 'session=; Max-Age=0' } };
      if (request.url === '/theme')
        return {
          statusCode: 303,
          headers: {
            location: '//forged.invalid',
            'set-cookie': 'theme=dark',
            'cache-control': 'public, max-age=600',
          },
        };
      return { statusCode: 200, headers: { 'cache-control': 'public, max-age=60' } };
    };
    const probe = headerProbeFromInject(badApp, serviceOrigin);
    for (const key of HEADER_BOUNDARY_KEYS) expect(await probe(key), key).toMatchObject({ ok: false });
  });

  it('reports a throwing app as failed', async () => {
    const probe = headerProbeFromInject(async () => {
      throw new Error('ECONNRESET');
    }, serviceOrigin);
    expect(await probe('connection_claim')).toEqual({ ok: false, detail: 'probe request failed: Error' });
  });

  it('accepts a 400 refusal or an absolute same-origin redirect for navigation', () => {
    const judge = HEADER_PROBE_PLANS.navigation_capability.judge;
    expect(judge({ statusCode: 400, headers: {} }, serviceOrigin).ok).toBe(true);
    expect(
      judge({ statusCode: 303, headers: { location: 'https://civitas.example/' } }, serviceOrigin).ok,
    ).toBe(true);
    expect(
      judge(
        { statusCode: 303, headers: { location: 'https://civitas.example.forged.invalid/' } },
        serviceOrigin,
      ).ok,
    ).toBe(false);
    expect(judge({ statusCode: 200, headers: {} }, serviceOrigin).ok).toBe(false);
  });
});
