/**
 * The health operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { operations } from '../registry/operation.ts';
import { ok, readinessSchema, versionsSchema } from './contract.ts';

const { api, page } = operations('health');

/** Liveness, readiness, versions and the changelog. */
export const HEALTH_OPERATIONS = [
  api(
    '/_health',
    'Load-balancer probe: 200 when this process can serve (database reached within a short timeout), else 503',
    {
      rate: 'none',
      provider: 'database',
      GET: {
        response: z.object({
          ok,
          status: z
            .literal('degraded')
            .optional()
            .describe('present while serving without a shared dependency'),
          reasons: z.array(z.string()).optional(),
        }),
        policy: { cache: 'no-store' },
      },
    },
  ),
  api('/health', 'Readiness in detail: database reachability and latency, app version, uptime', {
    provider: 'database',
    GET: { response: readinessSchema, policy: { cache: 'no-store' } },
  }),
  api('/health/live', 'Liveness only: the process answers; no dependency is checked', {
    rate: 'none',
    GET: {
      response: z.object({ ok, live: z.literal(true), uptime_s: z.number().int().min(0) }),
      policy: { cache: 'no-store' },
    },
  }),
  page('/status', 'Service status for people: readiness, current vitals headline and recent failures', {
    GET: { policy: { cache: 'no-store' } },
  }),
  api(
    '/api/version',
    'Versions: app version, API contract version 1 and the civitas.*.v1 payload schema names',
    { GET: { response: versionsSchema } },
  ),
  page('/changelog', 'Changelog of civitas releases, from the repository CHANGELOG', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  page('/changelog/{tag}', 'One release of the changelog, by release tag', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
];
