import { defineRoute } from '../route.ts';
import { stewardHybrid } from '../http-steward.ts';
import { sessionOf } from '../plugins/session.ts';
import { censusHost } from '../boundaries/live-probes.ts';
import { operatorConsole } from './console.ts';

/** The operator console, served to stewards only (the entry's scope, enforced by the router). */
const consoleRoute = stewardHybrid((request) =>
  operatorConsole(request.server.civitas, censusHost(request.server), sessionOf(request)),
);

export const operatorRoutes = [
  defineRoute('GET /operator', { ...consoleRoute }),
  // The alias answers the same projection; its page (site/pages/dashboard.astro) renders the same console.
  defineRoute('GET /dashboard', { ...consoleRoute }),
];
