/**
 * The boundaries operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { count, coverage, addressPressure, censusRow } from '../schemas/boundaries.ts';
import { operations } from '../operation.ts';

const { api, page } = operations('boundaries');

/** The 23 privacy boundaries, re-proved live. */
export const BOUNDARY_OPERATIONS = [
  api(
    '/api/boundaries',
    'Boundary census (civitas.boundary-census.v1): the 23 boundaries re-proved live with synthetic probes',
    {
      GET: {
        response: z.object({
          ok: z.literal(true),
          schema: z.literal('civitas.boundary-census.v1'),
          identity_boundary: z.string(),
          total_boundaries: count,
          active: count,
          unbound_count: count,
          all_bound: z.boolean(),
          fully_accounted: z.boolean(),
          coverage,
          address_pressure: addressPressure,
          boundaries: z.array(censusRow),
          principle: z.string(),
          wiring_proof: z.string(),
          proof: z.object({ human: z.literal('/boundaries'), machine: z.literal('/api/boundaries') }),
        }),
        policy: { cache: 'no-store' }, // a live proof must not be replayed from any cache
      },
    },
  ),
  page('/boundaries', 'The 23 privacy boundaries, re-proved live on every view', {
    // shared_cache_audience: this page is listed among those no shared cache may keep
    GET: { policy: { cache: 'private' } },
  }),
];
