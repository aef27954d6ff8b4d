/**
 * The live census: the 23 synthetic probes (shared/boundaries/census.ts), the five header
 * boundaries probed with real in-process requests to this running app, the inventory computed
 * from the code (cached per process) and address pressure from the live population.
 *
 * A service: it takes the AppContext and, passed in explicitly, the little it needs of the running
 * app (a CensusHost: the in-process probe and the registered routes and tools), which
 * api/boundaries/live-probes.ts builds from the instance.
 */
import { runCensus, type CensusBody, type ProbeOptions } from '../../shared/boundaries/census.ts';
import {
  headerProbeFromInject,
  type ProbeRequest,
  type ProbeResponse,
} from '../../shared/boundaries/headers/live-probes.ts';
import type { AppContext } from '../context.ts';
import { processCoverage, type ScanOptions } from './inventory.ts';
import { livePressure } from './pressure.ts';
import { coalescer } from '../../shared/coalesce.ts';

/** What the census needs of the running app (censusHost in ./live-probes.ts builds it from the instance). */
export interface CensusHost {
  /** Sends a probe's request to the running app in process and answers its status and headers. */
  probe(request: ProbeRequest): Promise<ProbeResponse>;
  /** The route implementations the app registered, each with its defining module. */
  routes: ScanOptions['routes'];
  /** The MCP tools the app offers, each with its defining module. */
  tools: ScanOptions['tools'];
}

/** The inventory (cached per process), traced from the routes and tools the app registered. */
export function censusCoverage(host: Pick<CensusHost, 'routes' | 'tools'>) {
  return processCoverage({ routes: host.routes, tools: host.tools });
}

/** The full census body, re-proved on this call. `projectors` exists for the break tests only. */
export async function liveCensus(
  ctx: AppContext,
  host: CensusHost,
  options: Pick<ProbeOptions, 'projectors'> = {},
): Promise<CensusBody> {
  if (options.projectors) return runLive(ctx, host, options);
  return sharedRun(ctx, host);
}

/** Keyed by the app's context: one app, one host. */
const censusRuns = coalescer<AppContext, CensusBody>();

/**
 * Requests that arrive together share one census, but never one that began before they arrived
 * (shared/coalesce.ts): each answer is proved after its request came in, and a burst of requests
 * costs one run per run-time instead of one run each. On the embedded database a run gathers
 * (begins on the next check phase, after the requests already received are read), as the other
 * coalesced reads there do: its queries hold the thread, so a run begun at once would serve one.
 */
function sharedRun(ctx: AppContext, host: CensusHost): Promise<CensusBody> {
  return censusRuns(ctx, () => runLive(ctx, host), ctx.db.embedded);
}

async function runLive(
  ctx: AppContext,
  host: CensusHost,
  options: Pick<ProbeOptions, 'projectors'> = {},
): Promise<CensusBody> {
  const [coverage, pressure] = await Promise.all([censusCoverage(host), livePressure(ctx.db)]);
  return runCensus({
    ...options,
    headerProbe: headerProbeFromInject((request) => host.probe(request), ctx.config.origin),
    headerProbeTimeoutMs: 3_000,
    coverage,
    addressPressure: pressure,
  });
}
