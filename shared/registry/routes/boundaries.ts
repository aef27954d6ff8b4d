import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, page } = family('boundaries');

/** The 23 privacy boundaries, re-proved live. */
export const BOUNDARY_ROUTES: RouteShape[] = [
  api(
    '/api/boundaries',
    'Boundary census (civitas.boundary-census.v1): the 23 boundaries re-proved live with synthetic probes',
  ),
  page('/boundaries', 'The 23 privacy boundaries, re-proved live on every view'),
];
