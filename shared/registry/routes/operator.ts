import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { page } = family('operator');

/** Operator surfaces: served to stewards only, never published in /openapi.json, not in the 279. */
export const OPERATOR_ROUTES: RouteShape[] = [
  page('/operator', 'Operator console: jobs, queues, rate-limit pressure and pending steward work', {
    operator: true,
    scope: 'steward:write',
  }),
  page('/dashboard', 'Operator console', {
    operator: true,
    alias: true,
    aliasOf: '/operator',
    scope: 'steward:write',
  }),
];
