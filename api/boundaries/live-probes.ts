/**
 * The census's hold on the running app: its live probes are real requests sent with `app.inject`,
 * and its inventory is traced from what the app registered. Host code: it needs the Fastify
 * instance for `inject`, `internalToken`, `implementations` and `tools`, and hands the census
 * service (./census.ts) only those, as a CensusHost.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProbeRequest, ProbeResponse } from '../../shared/boundaries/headers/live-probes.ts';
import type { CensusHost } from './census.ts';

/** Header marking a live probe's own request (its value is the per-process internal token). */
export const PROBE_HEADER = 'x-civitas-probe';

/** True when this request is one of the census's own live probes (unforgeable from outside). */
export function isLiveProbe(request: FastifyRequest): boolean {
  const value = request.headers[PROBE_HEADER];
  return typeof value === 'string' && value.length > 0 && value === request.server.internalToken;
}

/**
 * Sends a probe's request to the running app in process. It carries the internal token (so the
 * probes spend no visitor's rate budget) and the probe marker (so GET /boundaries answers with its
 * real headers but without rendering the page, which would run the census again).
 */
export function probeInject(app: FastifyInstance): (request: ProbeRequest) => Promise<ProbeResponse> {
  return async (request) => {
    const response = await app.inject({
      method: request.method,
      url: request.url,
      headers: {
        ...request.headers,
        'x-civitas-internal': app.internalToken,
        [PROBE_HEADER]: app.internalToken,
      },
      payload: request.payload,
    });
    return { statusCode: response.statusCode, headers: response.headers as ProbeResponse['headers'] };
  };
}

/** What the census needs of this app: its in-process probe and the routes and tools it registered. */
export function censusHost(app: FastifyInstance): CensusHost {
  return { probe: probeInject(app), routes: app.implementations, tools: app.tools };
}
