import { agentRoutes } from './agents/routes.ts';
import { boundaryRoutes } from './boundaries/routes.ts';
import { discoveryRoutes } from './discovery/routes.ts';
import { healthRoutes } from './health/routes.ts';
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
import type { Family } from '../shared/registry/types.ts';

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
