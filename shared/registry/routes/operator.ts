import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { mutation, page } = family('operator');

/** Operator surfaces: served to stewards only, never published in /openapi.json, not in the 279. */
export const OPERATOR_ROUTES: RouteShape[] = [
  page('/operator', 'Operator console: jobs, queues, rate-limit pressure and pending steward work', { operator: true, scope: 'steward:write' }),
  page('/dashboard', 'Operator console', { operator: true, alias: true, aliasOf: '/operator', scope: 'steward:write' }),
  page('/steward/held', 'Held imprints with their bodies, for triage', { operator: true, scope: 'steward:write' }),
  page('/steward/whispers', 'The whisper archive: steward-only notes and events', { operator: true, scope: 'steward:write' }),
  mutation('/steward/orders', 'Accept, apply or decline an order (with a receipt and a public note)', { operator: true, scope: 'steward:write' }),
  mutation('/steward/pacts', "Answer a pact past its due date on its author's behalf (kept or broken), settling its stakes", { operator: true, scope: 'steward:write' }),
];
