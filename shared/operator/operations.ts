/**
 * The operator operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { operations } from '../registry/operation.ts';
import { operatorConsoleSchema } from './contract.ts';

const { page } = operations('operator');

/** Operator surfaces: served to stewards only, never published in /openapi.json, not in the 279. */
export const OPERATOR_OPERATIONS = [
  page('/operator', 'Operator console: jobs, queues, rate-limit pressure and pending steward work', {
    operator: true,
    scope: 'steward:write',
    GET: { response: operatorConsoleSchema },
  }),
  page('/dashboard', 'Operator console', {
    operator: true,
    alias: true,
    aliasOf: '/operator',
    scope: 'steward:write',
    GET: { response: operatorConsoleSchema },
  }),
];
