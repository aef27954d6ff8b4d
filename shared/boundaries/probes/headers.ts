/**
 * Pure fallback probes of the five header boundaries: each calls the policy function with
 * literal inputs (hostile ones included) and checks the decision. Used on every census; the
 * live probe (headers/live-probes.ts) adds a real request when the API supplies one.
 */
import { keepsOutOfSharedCaches } from '../headers/cache.ts';
import { claimsConnection } from '../headers/transport.ts';
import type { ExportRole, HeaderBoundaryKey } from '../keys.ts';
import type { ProbeCase } from '../probe-check.ts';

const SERVICE = 'https://civitas.example';

/** Return targets that must all be refused (off-origin, scheme, encoded, control characters). */
export const HOSTILE_RETURN_TARGETS = [
  '//sentinel.invalid',
  '/\\sentinel.invalid',
  '\\\\sentinel.invalid',
  'http://sentinel.invalid/',
  'https:sentinel.invalid',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,sentinel',
  '/%2F%2Fsentinel.invalid',
  '/%2f%2fsentinel.invalid',
  '%2F%2Fsentinel.invalid',
  '/%5Csentinel.invalid',
  '/%252F%252Fsentinel.invalid',
  '/.//sentinel.invalid',
  '/%2e//sentinel.invalid',
  '/a/..//sentinel.invalid',
  '/\t/sentinel.invalid',
  '/\n/sentinel.invalid',
  ' //sentinel.invalid',
  '/sentinel\u0000',
  '/%0d%0aSet-Cookie:sentinel=1',
  'sentinel.invalid',
  '',
] as const;

const refused = (target: string): ProbeCase => ({
  name: `refuses ${JSON.stringify(target)}`,
  args: [target],
  keeps: [{ path: '', equals: null }],
});

const crossSite = (name: string, request: Record<string, string | null>): ProbeCase => ({
  name,
  args: [{ serviceOrigin: SERVICE, host: 'civitas.example', ...request }],
  keeps: [{ path: '', equals: false }],
});

export const HEADER_POLICY_PROBES: Record<HeaderBoundaryKey, readonly ProbeCase[]> = {
  shared_cache_audience: [
    {
      name: 'personalized response',
      args: [],
      judge: (v) =>
        keepsOutOfSharedCaches(v) ? null : `cache-control ${JSON.stringify(v)} lets shared caches keep it`,
    },
  ],
  set_cookie_replay: [
    {
      name: 'credential response',
      args: [],
      judge: (v) =>
        keepsOutOfSharedCaches(v)
          ? null
          : `cache-control ${JSON.stringify(v)} lets shared caches replay the cookie`,
    },
  ],
  connection_claim: [
    {
      name: 'HTTPS response',
      args: [],
      judge: (v) =>
        claimsConnection(v) ? null : `strict-transport-security ${JSON.stringify(v)} is too weak`,
    },
  ],
  request_provenance: [
    {
      name: 'same origin accepted',
      args: [{ origin: SERVICE, secFetchSite: 'same-origin', serviceOrigin: SERVICE }],
      keeps: [{ path: '', equals: true }],
    },
    {
      name: 'sec-fetch-site alone accepted',
      args: [{ secFetchSite: 'same-origin', serviceOrigin: SERVICE }],
      keeps: [{ path: '', equals: true }],
    },
    crossSite('forged origin refused', { origin: 'https://sentinel.invalid', secFetchSite: 'cross-site' }),
    crossSite('lookalike origin refused', { origin: 'https://civitas.example.sentinel.invalid' }),
    crossSite('cleartext twin refused', { origin: 'http://civitas.example' }),
    crossSite('opaque origin refused', { origin: 'null' }),
    crossSite('same-site sibling refused', { secFetchSite: 'same-site' }),
    crossSite('no evidence refused', {}),
  ],
  navigation_capability: [
    { name: 'local path kept', args: ['/sovereign?x=1'], keeps: [{ path: '', equals: '/sovereign?x=1' }] },
    ...HOSTILE_RETURN_TARGETS.map(refused),
  ],
};

export const BOUNDARY_EXPORT_ROLES = {
  HOSTILE_RETURN_TARGETS: 'vocabulary',
  HEADER_POLICY_PROBES: 'vocabulary',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
