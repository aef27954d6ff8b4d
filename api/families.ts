/**
 * The one wiring file: every family's routes, MCP tools, change-status resolvers and periodic
 * jobs are listed here and nowhere else. api/app.ts hands these to the router, to `app.tools` and to the ledger's
 * change-status registry; no family registers itself by being imported.
 */
import { agentRoutes } from './agents/routes.ts';
import { boundaryRoutes } from './boundaries/routes.ts';
import { discoveryRoutes } from './discovery/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { registerSchemaNames } from './health/version.ts';
import { payloadSchemaNames } from '../shared/registry/schema-names.ts';
import { identityRoutes } from './identity/routes.ts';
import { ledgerRoutes } from './ledger/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { recordRoutes } from './record/routes.ts';
import { stewardRoutes } from './steward/routes.ts';
import { operatorRoutes } from './operator/routes.ts';
import { peopleRoutes } from './people/routes.ts';
import { organismRoutes } from './organism/routes.ts';
import { governanceRoutes } from './governance/routes.ts';
import { orderRoutes } from './orders/routes.ts';
import { calibrationRoutes } from './calibration/routes.ts';
import { treasuryRoutes } from './treasury/routes.ts';
import { chronicleRoutes } from './chronicle/routes.ts';
import type { RouteImpl } from './route.ts';
import type { CivitasTool } from './tool.ts';
import { agentTools } from './agents/mcp.ts';
import { boundaryTools } from './boundaries/mcp.ts';
import { ledgerTools } from './ledger/mcp.ts';
import { checksTools } from './organism/checks/mcp.ts';
import { peopleTools } from './people/mcp.ts';
import { recordTools } from './record/mcp.ts';
import { stewardTools } from './steward/mcp.ts';
import { governanceTools } from './governance/mcp.ts';
import { calibrationTools } from './calibration/mcp.ts';
import { treasuryTools } from './treasury/mcp.ts';
import { registerChangeStatus, type ChangeStatusResolver } from './ledger/change-status.ts';
import { imprintChangeStatus, imprintEvents } from './record/change-status.ts';
import { orderChangeStatus } from './orders/views.ts';
import { pactChangeStatus } from './calibration/pacts.ts';
import { prophecyChangeStatus } from './calibration/prophecies.ts';
import { caseChangeStatus, pledgeChangeStatus } from './governance/status.ts';
import type { Family } from '../shared/registry/types.ts';
import { registerSpeakers } from './record/speakers.ts';
import { registerSubjectEvents, registerSubjectReceipt } from './ledger/subjects.ts';
import { courtVerdictReceipt } from './governance/verdicts.ts';
import { agentSpeakers } from './agents/speaker.ts';
import type { Job } from './jobs/job.ts';
import { pruneSightings } from './agents/seen.ts';
import { registerJobs } from './jobs/registry.ts';
import { sealDueDays } from './ledger/sealing.ts';
import { tileUntiledDays } from './ledger/tiling.ts';
import { runCalibrationJob } from './calibration/job.ts';
import { lapseOverduePacts } from './calibration/pact-answers.ts';
import { runCensusJob } from './people/census.ts';
import { vitalsFlushJob } from './plugins/vitals.ts';
import { organismJobs } from './organism/jobs.ts';
import { pruneSessionsAndFlashes } from './identity/prune.ts';

/**
 * Every family's route implementations, keyed by the api/ folder that holds them: the registry
 * names that folder as each shape's `family` (test/api/registry-families.test.ts proves it).
 */
export const ROUTES_BY_FAMILY = {
  discovery: discoveryRoutes,
  health: healthRoutes,
  agents: agentRoutes,
  record: recordRoutes,
  identity: identityRoutes,
  mcp: mcpRoutes,
  boundaries: boundaryRoutes,
  ledger: ledgerRoutes,
  steward: stewardRoutes,
  operator: operatorRoutes,
  people: peopleRoutes,
  organism: organismRoutes,
  governance: governanceRoutes,
  orders: orderRoutes,
  calibration: calibrationRoutes,
  treasury: treasuryRoutes,
  chronicle: chronicleRoutes,
} satisfies Partial<Record<Family, readonly RouteImpl[]>>;

/** Every implementation. A registry shape missing here answers 501. */
export const IMPLEMENTED_ROUTES: RouteImpl[] = Object.values(ROUTES_BY_FAMILY).flat();

/**
 * Every MCP tool, from every family: exactly the 20 of INTERFACE.md / DESIGN.md section 5 (a route
 * without a tool here is still fully served over HTTP). /agents.json and GET /mcp list these.
 */
export const MCP_TOOLS: CivitasTool[] = [
  ...peopleTools,
  ...agentTools,
  ...recordTools,
  ...boundaryTools,
  ...ledgerTools,
  ...stewardTools,
  ...checksTools,
  ...governanceTools,
  ...calibrationTools,
  ...treasuryTools,
];

/** Change status beside receipts, by subject prefix (the ledger's registry, api/ledger/change-status.ts). */
export const CHANGE_STATUS_RESOLVERS: Record<string, ChangeStatusResolver> = {
  imprint: imprintChangeStatus,
  order: orderChangeStatus,
  prophecy: prophecyChangeStatus,
  pact: pactChangeStatus,
  pledge: pledgeChangeStatus,
  case: caseChangeStatus,
};

/** Every periodic job (api/jobs/runner.ts runs them; the organism's dispatch page lists them). */
export const JOBS: Job[] = [
  { name: 'ledger.seal', intervalMs: 60_000, run: sealDueDays },
  { name: 'ledger.tile', intervalMs: 60_000, run: tileUntiledDays },
  { name: 'calibration.resolve', intervalMs: 60_000, run: runCalibrationJob },
  { name: 'calibration.pacts-lapse', intervalMs: 60_000, run: lapseOverduePacts },
  { name: 'people.census', intervalMs: 60_000, run: runCensusJob },
  { name: 'identity.prune', intervalMs: 600_000, run: pruneSessionsAndFlashes },
  { name: 'agents.seen-prune', intervalMs: 60_000, run: pruneSightings },
  { name: 'organism.vitals-flush', intervalMs: 30_000, run: vitalsFlushJob },
  ...organismJobs,
];

/** Registers every family's change-status resolver with the ledger (buildApp calls it; repeating is harmless). */
export function wireRegistries(): void {
  for (const [prefix, resolver] of Object.entries(CHANGE_STATUS_RESOLVERS))
    registerChangeStatus(prefix, resolver);
  // The Record's feedback doors learn who speaks from the agents family, which sits above it.
  registerSpeakers(agentSpeakers);
  // /verify/court/{id}: the court knows which receipt closed a case.
  registerSubjectReceipt('court', courtVerdictReceipt);
  // A receipt's timeline shows an imprint's body leaving the window, which only the Record knows.
  registerSubjectEvents('imprint', imprintEvents);
  // /api/version's names come from every contract: handed in here, so /health imports none.
  registerSchemaNames(payloadSchemaNames());
  // The job runner and the dispatch page read the job list through the jobs family's registry.
  registerJobs(JOBS);
}
