/**
 * The live census: the 23 synthetic probes (shared/boundaries/census.ts), the five header
 * boundaries probed with real in-process requests to this running app, the inventory computed
 * from the code (cached per process) and address pressure from the live population.
 */
import type { FastifyInstance } from 'fastify';
import { runCensus, type CensusBody, type ProbeOptions } from '../../shared/boundaries/census.ts';
import { headerProbeFromInject, type ProbeRequest, type ProbeResponse } from '../../shared/boundaries/headers/live-probes.ts';
import { processCoverage } from './inventory.ts';
import { livePressure } from './pressure.ts';
import { coalescer } from '../../shared/coalesce.ts';

/** Header marking a live probe's own request (its value is the per-process internal token). */
export const PROBE_HEADER = 'x-civitas-probe';

/** True when this request is one of the census's own live probes (unforgeable from outside). */
export function isLiveProbe(request: { headers: Record<string, unknown>; server: FastifyInstance }): boolean {
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
      headers: { ...request.headers, 'x-civitas-internal': app.internalToken, [PROBE_HEADER]: app.internalToken },
      payload: request.payload,
    });
    return { statusCode: response.statusCode, headers: response.headers as ProbeResponse['headers'] };
  };
}

/** The inventory (cached per process), traced from the routes and tools the app registered. */
export function censusCoverage(app: FastifyInstance) {
  return processCoverage({ routes: app.implementations, tools: app.tools });
}

/** The full census body, re-proved on this call. `projectors` exists for the break tests only. */
export async function liveCensus(app: FastifyInstance, options: Pick<ProbeOptions, 'projectors'> = {}): Promise<CensusBody> {
  if (options.projectors) return runLive(app, options);
  return sharedRun(app);
}

const censusRuns = coalescer<FastifyInstance, CensusBody>();

/**
 * Requests that arrive together share one census, but never one that began before they arrived
 * (shared/coalesce.ts): each answer is proved after its request came in, and a burst of requests
 * costs one run per run-time instead of one run each.
 */
function sharedRun(app: FastifyInstance): Promise<CensusBody> {
  return censusRuns(app, () => runLive(app));
}

async function runLive(app: FastifyInstance, options: Pick<ProbeOptions, 'projectors'> = {}): Promise<CensusBody> {
  const [coverage, pressure] = await Promise.all([censusCoverage(app), livePressure(app.civitas.db)]);
  return runCensus({
    ...options,
    headerProbe: headerProbeFromInject(probeInject(app), app.civitas.config.origin),
    headerProbeTimeoutMs: 3_000,
    coverage,
    addressPressure: pressure,
  });
}
