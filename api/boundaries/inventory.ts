/**
 * The boundary inventory, computed from the code itself (civitas.boundary-inventory.v1).
 *
 * - Tier 1: every tier-1 module (shared/boundaries/coverage.ts TIER1_MODULES) is imported and its
 *   real exports listed (`Object.keys(namespace)`), beside its BOUNDARY_EXPORT_ROLES declaration.
 * - Tier 2: every published surface (each method of each registry shape, and each MCP tool) is
 *   traced to the module that implements it: the module whose `defineRoute('<key>', …)` /
 *   `defineTool({ name })` defines it, or the Astro page in site/pages for page shapes, following
 *   the page's `apiGet(Astro, '/api/…')` reads. The module's runtime imports are followed
 *   transitively; the boundary exports imported by name anywhere in that closure are what the
 *   surface reaches.
 * - Tier 3: every other code module (api, shared, site, cards) and whether it imports a boundary
 *   export by name itself.
 *
 * Imports, reads and definitions come from the module graph the build wrote with TypeScript's
 * parser (api/boundaries/module-graph.ts), checked against the files on disk. The sources do not
 * change while the process runs, so this is computed once per process and cached; the probes
 * themselves run on every census request.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  computeCoverage,
  tier1FromNamespaces,
  TIER1_MODULES,
  type Coverage,
  type InventoryInput,
} from '../../shared/boundaries/coverage.ts';
import {
  PUBLISHED_ROUTES,
  registrableMethods,
  routeKey,
  isStaticPlaceholder,
} from '../../shared/registry/index.ts';
import { definersOf, readModuleGraph, type ModuleGraph, type ModuleInfo } from './module-graph.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Registration lists: importing one means knowing every family's routes or tools, not calling
 * them, so the trace does not pass through them (else /agents.json would "reach" all 23 through
 * the MCP tool list). Each surface is traced from its own implementing module instead.
 */
export const REGISTRATION_MODULES = new Set(['api/families.ts']);

/** The registry path a page file serves: `site/pages/changelog/[tag].astro` → `/changelog/{tag}`. */
export function pagePathOf(file: string): string | null {
  const page = file.match(/^site\/pages\/(.*)\.astro$/)?.[1];
  if (page === undefined) return null;
  const route = page.replace(/(^|\/)index$/, '').replace(/\[([a-z]+)\]/g, '{$1}');
  return `/${route}`.replace(/\/$/, '') || '/';
}

export interface ScanResult {
  input: InventoryInput;
  /** Surface → the boundary exports it reaches (module#name), for the docs and tests. */
  surfaces: Map<string, string[]>;
}

export interface ScanOptions {
  /** The registered route implementations (IMPLEMENTED_ROUTES); keys not listed are served by a page or 501. */
  routes: readonly { key: string }[];
  /** The MCP tools the endpoint offers. */
  tools: readonly { name: string }[];
  /** The module graph (tests pass one built from a fixture repository); else the build's, checked. */
  graph?: ModuleGraph;
  /** Tier-1 module namespaces (tests may pass edited ones to see orphans and dangling rows found). */
  namespaces?: readonly { module: string; exports: Record<string, unknown> }[];
  root?: string;
}

async function importTier1(root: string): Promise<{ module: string; exports: Record<string, unknown> }[]> {
  const namespaces = [];
  for (const module of TIER1_MODULES) {
    const url = new URL(module, `file://${root.endsWith('/') ? root : `${root}/`}`).href;
    namespaces.push({ module, exports: (await import(url)) as Record<string, unknown> });
  }
  return namespaces;
}

/** Reads the code and builds the inventory input (tiers 1 to 3). */
export async function scanInventory(options: ScanOptions): Promise<ScanResult> {
  const root = resolve(options.root ?? REPO_ROOT);
  const graph = options.graph ?? readModuleGraph(root);
  const modules = new Map<string, ModuleInfo>(
    Object.entries(graph.files).sort(([a], [b]) => (a < b ? -1 : 1)),
  );

  const tier1 = new Set<string>(TIER1_MODULES);
  const { tier1Exports, declarations } = tier1FromNamespaces(options.namespaces ?? (await importTier1(root)));
  const exportsOf = new Map<string, string[]>();
  for (const entry of tier1Exports)
    exportsOf.set(entry.module, [...(exportsOf.get(entry.module) ?? []), entry.name]);

  /** Boundary exports a module imports by name from a tier-1 module (directly). */
  const directReach = (info: ModuleInfo): string[] => {
    const reached: string[] = [];
    for (const edge of info.imports) {
      if (!tier1.has(edge.target)) continue;
      const names = edge.names.includes('*') ? (exportsOf.get(edge.target) ?? []) : edge.names;
      for (const name of names)
        if ((exportsOf.get(edge.target) ?? []).includes(name)) reached.push(`${edge.target}#${name}`);
    }
    return reached;
  };

  const closureCache = new Map<string, Set<string>>();
  const closureReach = (start: string): Set<string> => {
    const cached = closureCache.get(start);
    if (cached) return cached;
    const seen = new Set<string>();
    const reached = new Set<string>();
    const stack = [start];
    while (stack.length) {
      const path = stack.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const info = modules.get(path);
      if (!info) continue;
      for (const name of directReach(info)) reached.add(name);
      for (const edge of info.imports) if (!REGISTRATION_MODULES.has(edge.target)) stack.push(edge.target);
    }
    closureCache.set(start, reached);
    return reached;
  };

  const definers = definersOf(graph);
  const registered = new Set(options.routes.map((route) => route.key));
  const implementer = new Map([...definers.routes].filter(([key]) => registered.has(key)));
  const toolModule = definers.tools;
  const pageFile = new Map<string, string>();
  for (const info of modules.values()) {
    const page = pagePathOf(info.path);
    if (page) pageFile.set(page, info.path);
  }

  const surfaceReach = new Map<string, string[]>();
  const pageReach = (path: string): Set<string> => {
    const file = pageFile.get(path);
    const reached = new Set<string>();
    if (!file) return reached;
    for (const name of closureReach(file)) reached.add(name);
    for (const read of modules.get(file)?.apiReads ?? []) {
      const module = implementer.get(`GET ${read}`);
      if (module) for (const name of closureReach(module)) reached.add(name);
    }
    return reached;
  };

  for (const shape of PUBLISHED_ROUTES) {
    if (isStaticPlaceholder(shape.path)) {
      surfaceReach.set(routeKey('GET', shape.path), []);
      continue;
    }
    for (const method of registrableMethods(shape)) {
      const key = routeKey(method, shape.path);
      const reached = new Set<string>();
      const module = implementer.get(key);
      if (module) for (const name of closureReach(module)) reached.add(name);
      if (method === 'GET' && (shape.kind === 'page' || shape.kind === 'hybrid'))
        for (const name of pageReach(shape.path)) reached.add(name);
      surfaceReach.set(key, [...reached].sort());
    }
  }
  for (const { name } of options.tools) {
    const module = toolModule.get(name);
    surfaceReach.set(`MCP ${name}`, module ? [...closureReach(module)].sort() : []);
  }

  const tier3 = [...modules.values()]
    .filter((info) => !tier1.has(info.path))
    .map((info) => ({ path: info.path, reaches: directReach(info).length > 0 }));
  return {
    input: {
      tier1Exports,
      declarations,
      surfaces: [...surfaceReach].map(([route, reaches]) => ({ route, reaches })),
      modules: tier3,
    },
    surfaces: surfaceReach,
  };
}

let cached: Promise<Coverage> | undefined;

/**
 * The coverage object, computed from the code once per process. Without a module graph that
 * describes the code on disk (no build yet, or files edited since), nothing can be traced: the
 * census still runs its probes and says its inventory is unaccounted, and why, instead of failing
 * (not cached: a build makes the next request traced).
 */
export function processCoverage(
  options: Omit<ScanOptions, 'namespaces' | 'root' | 'graph'>,
): Promise<Coverage> {
  if (cached) return cached;
  let graph: ModuleGraph;
  try {
    graph = readModuleGraph(REPO_ROOT);
  } catch (error) {
    return untracedCoverage(options, (error as Error).message);
  }
  cached = scanInventory({ ...options, graph }).then((scan) => computeCoverage(scan.input));
  // Not cached when it fails: the next request tries again.
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}

async function untracedCoverage(options: Omit<ScanOptions, 'graph'>, reason: string): Promise<Coverage> {
  const coverage = computeCoverage((await scanInventory({ ...options, graph: { files: {} } })).input);
  return { ...coverage, status: 'unaccounted', ok: false, basis: `untraced: ${reason}` };
}
