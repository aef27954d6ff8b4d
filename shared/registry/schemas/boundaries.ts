/**
 * The boundary census (GET /api/boundaries), field for field as shared/boundaries/census.ts
 * assembles it (shared/contract.ts). It is re-proved on every call and carries no actor. This
 * module imports no projector (census.ts reaches them all), so a surface that lists contracts
 * does not count as reaching the census's authorities in the inventory. It lives here beside the
 * registry, not in shared/boundaries/, whose every module is a classified tier-1 boundary module.
 */
import { z } from 'zod';
import { INVENTORY_SCHEMA } from '../../boundaries/coverage.ts';
import { BOUNDARY_KEYS, EXPORT_ROLES } from '../../boundaries/keys.ts';

export const count = z.number().int().min(0);
const names = z.array(z.string());

export const coverage = z.object({
  schema: z.literal(INVENTORY_SCHEMA),
  authority: z.literal('computeCoverage'),
  status: z.enum(['accounted', 'unaccounted']),
  ok: z.boolean(),
  basis: z.string(),
  exhaustive_modules: count,
  named_export_modules: count,
  scope: z.object({
    tier1: count,
    tier2: count,
    tier3: count,
    registered_exports: count,
    reached_exports: count,
    unreached_exports: count,
    unreached_fraction: z.number(),
  }),
  unreached_scope: z.object({ surfaces_unreached: count, modules_unreached: count, statement: z.string() }),
  exports_inventoried: count,
  declarations: count,
  census_rows: count,
  roles: z.record(z.enum(EXPORT_ROLES), count),
  unclassified: names,
  orphans: names,
  unrecognised_roles: names,
  dangling_rows: names,
  dangling_anchors: names,
  rows_without_authority: names,
  impossible_population: names,
});

export const addressPressure = z.object({
  available: z.boolean(),
  inhabitants: count,
  distinct_addresses: count,
  address_space: count,
  colliding_addresses: count,
  unaddressable: count,
  saturation: z.number(),
});

export const censusRow = z.object({
  key: z.enum(BOUNDARY_KEYS),
  label: z.string(),
  authority: z.string(),
  guards: z.string(),
  closes: z.string(),
  status: z.enum(['active', 'unbound']),
});
