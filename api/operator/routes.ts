import { defineRoute } from '../route.ts';
import { stewardHybrid, stewardOf } from '../http-steward.ts';
import { censusHost } from '../boundaries/live-probes.ts';
import { operatorConsole } from './console.ts';

/** The operator console, served to stewards only (scope from the registry, checked again here). */
const consoleRoute = stewardHybrid((request) =>
  operatorConsole(request.server.civitas, censusHost(request.server), stewardOf(request)),
);

export const operatorRoutes = [
  defineRoute('GET /operator', { cache: 'private', ...consoleRoute }),
  // The alias answers the same projection; its page (site/pages/dashboard.astro) renders the same console.
  defineRoute('GET /dashboard', { cache: 'private', ...consoleRoute }),
];
