/**
 * The organism: the service observing itself, one room per concept — its self (state, persona,
 * soul, evolution, season, journal), its vitals, its mind (claims, truth, trust), the themes of
 * the Record, the checks it runs on itself, the observatory and its experiments.
 */
import { checksRoutes } from './checks/routes.ts';
import { experimentsRoutes } from './experiments/routes.ts';
import { mindRoutes } from './mind/routes.ts';
import { observatoryRoutes } from './observatory/routes.ts';
import { selfRoutes } from './self/routes.ts';
import { themesRoutes } from './themes/routes.ts';
import { vitalsRoutes } from './vitals/routes.ts';

export const organismRoutes = [
  ...selfRoutes,
  ...vitalsRoutes,
  ...mindRoutes,
  ...themesRoutes,
  ...checksRoutes,
  ...observatoryRoutes,
  ...experimentsRoutes,
];
