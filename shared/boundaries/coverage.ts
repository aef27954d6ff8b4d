/**
 * The boundary inventory (`civitas.boundary-inventory.v1`), pure part. The API's scanner imports
 * every tier-1 module, lists its real exports (`Object.keys(namespace)`) and its
 * `BOUNDARY_EXPORT_ROLES` declaration, adds the surfaces (tier 2) and modules (tier 3) it traced,
 * and hands them here. Every tier-1 export must be classified, every row must name a real export,
 * every declaration must name one, and no censused projector may sit outside the rows.
 */
import { BOUNDARY_KEYS, EXPORT_ROLES, type ExportRole } from './keys.ts';
import { CENSUS_ROWS, type CensusRowSpec } from './rows.ts';

export const INVENTORY_SCHEMA = 'civitas.boundary-inventory.v1';

/** The dedicated boundary modules, relative to the repository root; tier 1 enumerates them exhaustively. */
export const TIER1_MODULES = [
  'shared/boundaries/keys.ts',
  'shared/boundaries/k-anonymity.ts',
  'shared/boundaries/actor-ref.ts',
  'shared/boundaries/sentinels.ts',
  'shared/boundaries/probe-check.ts',
  'shared/boundaries/rows.ts',
  'shared/boundaries/census.ts',
  'shared/boundaries/coverage.ts',
  'shared/boundaries/address-pressure.ts',
  'shared/boundaries/projectors/actors.ts',
  'shared/boundaries/projectors/spam.ts',
  'shared/boundaries/projectors/whispers.ts',
  'shared/boundaries/projectors/gatherings.ts',
  'shared/boundaries/projectors/cohorts.ts',
  'shared/boundaries/projectors/treasury.ts',
  'shared/boundaries/projectors/failures.ts',
  'shared/boundaries/headers/cache.ts',
  'shared/boundaries/headers/transport.ts',
  'shared/boundaries/headers/provenance.ts',
  'shared/boundaries/headers/navigation.ts',
  'shared/boundaries/headers/live-probes.ts',
  'shared/boundaries/probes/fixtures.ts',
  'shared/boundaries/probes/records.ts',
  'shared/boundaries/probes/groups.ts',
  'shared/boundaries/probes/headers.ts',
] as const;

export interface Tier1Export {
  module: string;
  name: string;
  /** The role declared for it in the module's BOUNDARY_EXPORT_ROLES, if any. */
  role?: string;
}

export interface ExportDeclaration {
  module: string;
  name: string;
  role: string;
}

export interface InventoryInput {
  tier1Exports: readonly Tier1Export[];
  /** Tier 2: published surfaces and the boundary exports (by name) each one calls. */
  surfaces: readonly { route: string; reaches: readonly string[] }[];
  /** Tier 3: other code modules and whether each imports a boundary export. */
  modules: readonly { path: string; reaches: boolean }[];
  /** Every declared role; without it, declarations are read from tier1Exports (no dangling anchors can show). */
  declarations?: readonly ExportDeclaration[];
}

export interface Coverage {
  schema: typeof INVENTORY_SCHEMA;
  authority: 'computeCoverage';
  status: 'accounted' | 'unaccounted';
  ok: boolean;
  basis: string;
  /** Tier-1 modules whose every export was enumerated. */
  exhaustive_modules: number;
  /** Tier-3 modules found importing a boundary export by name. */
  named_export_modules: number;
  scope: {
    tier1: number;
    tier2: number;
    tier3: number;
    registered_exports: number;
    reached_exports: number;
    unreached_exports: number;
    unreached_fraction: number;
  };
  unreached_scope: { surfaces_unreached: number; modules_unreached: number; statement: string };
  exports_inventoried: number;
  declarations: number;
  census_rows: number;
  roles: Record<ExportRole, number>;
  unclassified: string[];
  orphans: string[];
  unrecognised_roles: string[];
  dangling_rows: string[];
  dangling_anchors: string[];
  rows_without_authority: string[];
  impossible_population: string[];
}

/**
 * Turns imported module namespaces into the tier-1 part of the inventory: each real export with
 * its declared role, and each declaration (so a declared name with no export shows as dangling).
 */
export function tier1FromNamespaces(
  namespaces: readonly { module: string; exports: Record<string, unknown> }[],
): {
  tier1Exports: Tier1Export[];
  declarations: ExportDeclaration[];
} {
  const tier1Exports: Tier1Export[] = [];
  const declarations: ExportDeclaration[] = [];
  for (const { module, exports } of namespaces) {
    const declared = exports.BOUNDARY_EXPORT_ROLES;
    const roles: Record<string, unknown> =
      declared !== null && typeof declared === 'object' ? (declared as Record<string, unknown>) : {};
    for (const name of Object.keys(exports)) {
      tier1Exports.push(
        Object.hasOwn(roles, name) ? { module, name, role: String(roles[name]) } : { module, name },
      );
    }
    for (const [name, role] of Object.entries(roles)) declarations.push({ module, name, role: String(role) });
  }
  return { tier1Exports, declarations };
}

const id = (entry: { module: string; name: string }): string => `${entry.module}#${entry.name}`;
const exportName = (reach: string): string => reach.slice(reach.lastIndexOf('#') + 1);

/** Computes the coverage object from the inventory and the census rows. */
export function computeCoverage(
  input: InventoryInput,
  rows: readonly CensusRowSpec[] = CENSUS_ROWS,
): Coverage {
  const impossible: string[] = [];
  const exportIds = new Set<string>();
  const exportedNames = new Set<string>();
  for (const entry of input.tier1Exports) {
    if (exportIds.has(id(entry))) impossible.push(`${id(entry)} is inventoried twice`);
    exportIds.add(id(entry));
    exportedNames.add(entry.name);
  }
  const declarations: readonly ExportDeclaration[] =
    input.declarations ??
    input.tier1Exports
      .filter((e) => e.role !== undefined)
      .map((e) => ({ module: e.module, name: e.name, role: String(e.role) }));
  const declaredRole = new Map(declarations.map((d) => [id(d), d.role]));

  const authorities = new Set(
    rows.map((row) => (typeof row.authority === 'string' ? row.authority.trim() : '')).filter(Boolean),
  );
  const roles: Record<ExportRole, number> = { censused: 0, component: 0, vocabulary: 0, resolver: 0 };
  const unclassified: string[] = [];
  const orphans: string[] = [];
  const unrecognised: string[] = [];
  for (const entry of input.tier1Exports) {
    const role = declaredRole.get(id(entry)) ?? entry.role;
    if (authorities.has(entry.name)) roles.censused += 1;
    else if (role === undefined) unclassified.push(id(entry));
    else if (role === 'censused') orphans.push(id(entry));
    else if ((EXPORT_ROLES as readonly string[]).includes(role)) roles[role as ExportRole] += 1;
    else unrecognised.push(`${id(entry)}: ${role}`);
  }
  const danglingAnchors = declarations.filter((d) => !exportIds.has(id(d))).map(id);
  const rowsWithoutAuthority = rows
    .filter((row) => typeof row.authority !== 'string' || row.authority.trim() === '')
    .map((row) => row.key);
  const danglingRows = rows
    .filter(
      (row) =>
        typeof row.authority === 'string' &&
        row.authority.trim() !== '' &&
        !exportedNames.has(row.authority.trim()),
    )
    .map((row) => row.key);

  const rowKeys = rows.map((row) => row.key);
  if (new Set(rowKeys).size !== rowKeys.length)
    impossible.push('a boundary key appears in more than one row');
  if (rowKeys.join() !== BOUNDARY_KEYS.join())
    impossible.push(`the rows are not the ${BOUNDARY_KEYS.length} boundary keys in their order`);
  const classified = roles.censused + roles.component + roles.vocabulary + roles.resolver;
  if (classified + unclassified.length + orphans.length + unrecognised.length !== input.tier1Exports.length) {
    impossible.push(
      'classified, unclassified, orphaned and unrecognised exports do not add up to the exports inventoried',
    );
  }

  const registered = [...authorities].filter((name) => exportedNames.has(name));
  const reachedNames = new Set<string>();
  let surfacesUnreached = 0;
  for (const surface of input.surfaces) {
    if (surface.reaches.length === 0) surfacesUnreached += 1;
    for (const reach of surface.reaches) {
      const name = exportName(reach);
      if (!exportedNames.has(name))
        impossible.push(`${surface.route} reaches ${name}, which no boundary module exports`);
      reachedNames.add(name);
    }
  }
  const reached = registered.filter((name) => reachedNames.has(name)).length;
  const unreached = registered.length - reached;
  const modulesReaching = input.modules.filter((m) => m.reaches === true).length;
  const modulesUnreached = input.modules.length - modulesReaching;
  const tier1Modules = new Set(input.tier1Exports.map((e) => e.module)).size;

  const ok =
    unclassified.length +
      orphans.length +
      unrecognised.length +
      danglingRows.length +
      danglingAnchors.length +
      rowsWithoutAuthority.length +
      impossible.length ===
    0;
  return {
    schema: INVENTORY_SCHEMA,
    authority: 'computeCoverage',
    status: ok ? 'accounted' : 'unaccounted',
    ok,
    basis:
      'Tier 1 enumerates every export of the dedicated boundary modules and compares it with their BOUNDARY_EXPORT_ROLES declarations and the census rows; tier 2 counts the published surfaces that call a boundary export; tier 3 counts the other code modules that import one.',
    exhaustive_modules: tier1Modules,
    named_export_modules: modulesReaching,
    scope: {
      tier1: tier1Modules,
      tier2: input.surfaces.length,
      tier3: input.modules.length,
      registered_exports: registered.length,
      reached_exports: reached,
      unreached_exports: unreached,
      unreached_fraction: registered.length
        ? Math.round((unreached / registered.length) * 10_000) / 10_000
        : 0,
    },
    unreached_scope: {
      surfaces_unreached: surfacesUnreached,
      modules_unreached: modulesUnreached,
      statement: `Tier 1 is exhaustive. Tiers 2 and 3 are partial: ${unreached} of ${registered.length} censused exports are reached by no traced surface, ${surfacesUnreached} of ${input.surfaces.length} surfaces call no boundary export, and ${modulesUnreached} of ${input.modules.length} modules import none.`,
    },
    exports_inventoried: input.tier1Exports.length,
    declarations: declarations.length,
    census_rows: rows.length,
    roles,
    unclassified,
    orphans,
    unrecognised_roles: unrecognised,
    dangling_rows: danglingRows,
    dangling_anchors: danglingAnchors,
    rows_without_authority: rowsWithoutAuthority,
    impossible_population: impossible,
  };
}

/** The census's `fully_accounted`: nothing unclassified, orphaned, dangling or impossible. */
export function isFullyAccounted(coverage: Coverage | null | undefined): boolean {
  if (!coverage || coverage.ok !== true) return false;
  const lists = [
    coverage.unclassified,
    coverage.orphans,
    coverage.unrecognised_roles,
    coverage.dangling_rows,
    coverage.dangling_anchors,
    coverage.rows_without_authority,
    coverage.impossible_population,
  ];
  return lists.every((list) => Array.isArray(list) && list.length === 0);
}

export const BOUNDARY_EXPORT_ROLES = {
  INVENTORY_SCHEMA: 'vocabulary',
  TIER1_MODULES: 'vocabulary',
  tier1FromNamespaces: 'component',
  computeCoverage: 'resolver',
  isFullyAccounted: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
