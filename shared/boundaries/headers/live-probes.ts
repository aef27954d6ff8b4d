/**
 * The live side of the five header boundaries. The census accepts a `HeaderProbe`; the API builds
 * one from its in-process `inject` with `headerProbeFromInject`, which sends each plan's request
 * to the running app and judges the real response. Without an app the census falls back to the
 * pure policy probes (probes/headers.ts).
 */
import type { ExportRole, HeaderBoundaryKey } from '../keys.ts';
import { keepsOutOfSharedCaches } from './cache.ts';
import { safeReturnTarget } from './navigation.ts';
import { claimsConnection } from './transport.ts';

export interface HeaderProbeResult {
  ok: boolean;
  detail: string;
}

/** Runs the live probe of one header boundary against the running app. */
export type HeaderProbe = (key: HeaderBoundaryKey) => Promise<HeaderProbeResult>;

/** Shaped like Fastify's `inject` options, so the API can pass the request straight through. */
export interface ProbeRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface ProbeResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface HeaderProbePlan {
  description: string;
  request: (serviceOrigin: string) => ProbeRequest;
  judge: (response: ProbeResponse, serviceOrigin: string) => HeaderProbeResult;
}

const FORGED_ORIGIN = 'https://forged.invalid';

function header(response: ProbeResponse, name: string): string | null {
  const value = response.headers[name] ?? response.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function sameOriginForm(serviceOrigin: string, url: string, payload: string): ProbeRequest {
  return {
    method: 'POST',
    url,
    headers: {
      origin: serviceOrigin,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload,
  };
}

const pass = (detail: string): HeaderProbeResult => ({ ok: true, detail });
const fail = (detail: string): HeaderProbeResult => ({ ok: false, detail });

export const HEADER_PROBE_PLANS: Record<HeaderBoundaryKey, HeaderProbePlan> = {
  shared_cache_audience: {
    description:
      'GET /boundaries with a session cookie; the personalized response must carry Cache-Control: private, no-store.',
    request: () => ({
      method: 'GET',
      url: '/boundaries',
      headers: { cookie: 'civitas_session=probe-synthetic' },
    }),
    judge: (response) => {
      const value = header(response, 'cache-control');
      return keepsOutOfSharedCaches(value)
        ? pass(`cache-control: ${value}`)
        : fail(`cache-control was ${value ?? 'absent'}`);
    },
  },
  set_cookie_replay: {
    description:
      'Same-origin POST /theme sets the theme cookie; that response must carry Cache-Control: private, no-store.',
    request: (origin) => sameOriginForm(origin, '/theme', 'theme=dark&return_to=%2F'),
    judge: (response) => {
      if (header(response, 'set-cookie') === null)
        return fail(`no cookie was set (status ${response.statusCode}); nothing was proved`);
      const value = header(response, 'cache-control');
      return keepsOutOfSharedCaches(value)
        ? pass(`set-cookie with cache-control: ${value}`)
        : fail(`set-cookie with cache-control ${value ?? 'absent'}`);
    },
  },
  connection_claim: {
    description:
      'GET /health as an HTTPS request; the response must carry Strict-Transport-Security of at least a year with includeSubDomains.',
    request: () => ({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'https' } }),
    judge: (response) => {
      const value = header(response, 'strict-transport-security');
      return claimsConnection(value)
        ? pass(`strict-transport-security: ${value}`)
        : fail(`strict-transport-security was ${value ?? 'absent'}`);
    },
  },
  request_provenance: {
    description: `Cross-site POST /signout from ${FORGED_ORIGIN}; it must be refused with 403 and set no cookie.`,
    request: () => ({
      method: 'POST',
      url: '/signout',
      headers: {
        origin: FORGED_ORIGIN,
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: '',
    }),
    judge: (response) => {
      if (response.statusCode !== 403) return fail(`forged request answered ${response.statusCode}`);
      return header(response, 'set-cookie') === null
        ? pass('forged request refused with 403, no cookie')
        : fail('refused but a cookie was set');
    },
  },
  navigation_capability: {
    description:
      'Same-origin POST /theme with return_to=//forged.invalid; the answer must refuse it (400) or redirect to a local path.',
    request: (origin) => sameOriginForm(origin, '/theme', 'theme=dark&return_to=%2F%2Fforged.invalid'),
    judge: (response, serviceOrigin) => {
      if (response.statusCode === 400) return pass('off-origin target refused with 400');
      if (response.statusCode < 300 || response.statusCode >= 400)
        return fail(`answered ${response.statusCode}, neither a refusal nor a redirect`);
      const location = header(response, 'location');
      if (location === null) return fail('redirect without a location');
      const local = location.startsWith(`${serviceOrigin}/`)
        ? location.slice(serviceOrigin.length)
        : location;
      return safeReturnTarget(local) !== null && !location.includes('forged.invalid')
        ? pass(`redirected to local ${local}`)
        : fail(`redirected to ${location}`);
    },
  },
};

/**
 * Builds the census's HeaderProbe from a way to send a request to the running app in process
 * (Fastify's `app.inject`). A probe that throws is reported as failed, never as passed.
 */
export function headerProbeFromInject(
  inject: (request: ProbeRequest) => Promise<ProbeResponse>,
  serviceOrigin: string,
): HeaderProbe {
  return async (key) => {
    const plan = HEADER_PROBE_PLANS[key];
    try {
      return plan.judge(await inject(plan.request(serviceOrigin)), serviceOrigin);
    } catch (error) {
      return fail(`probe request failed: ${error instanceof Error ? error.name : 'error'}`);
    }
  };
}

export const BOUNDARY_EXPORT_ROLES = {
  HEADER_PROBE_PLANS: 'vocabulary',
  headerProbeFromInject: 'resolver',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
