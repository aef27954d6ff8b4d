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

/** Every family's route implementations. A registry shape missing here answers 501. */
export const IMPLEMENTED_ROUTES: RouteImpl[] = [
  ...discoveryRoutes,
  ...healthRoutes,
  ...agentRoutes,
  ...recordRoutes,
  ...identityRoutes,
  ...mcpRoutes,
  ...boundaryRoutes,
  ...ledgerRoutes,
  ...stewardRoutes,
  ...operatorRoutes,
  ...peopleRoutes,
  ...organismRoutes,
  ...governanceRoutes,
  ...orderRoutes,
  ...calibrationRoutes,
  ...treasuryRoutes,
  ...chronicleRoutes,
];
