import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, page } = family('health');

/** Liveness, readiness, versions and the changelog. */
export const HEALTH_ROUTES: RouteShape[] = [
  api(
    '/_health',
    'Load-balancer probe: 200 when this process can serve (database reached within a short timeout), else 503',
    { rate: 'none', provider: 'database' },
  ),
  api('/health', 'Readiness in detail: database reachability and latency, app version, uptime', {
    provider: 'database',
  }),
  api('/health/live', 'Liveness only: the process answers; no dependency is checked', { rate: 'none' }),
  page('/status', 'Service status for people: readiness, current vitals headline and recent failures'),
  api(
    '/api/version',
    'Versions: app version, API contract version 1 and the civitas.*.v1 payload schema names',
  ),
  page('/changelog', 'Changelog of civitas releases, from the repository CHANGELOG'),
  page('/changelog/{tag}', 'One release of the changelog, by release tag'),
];
