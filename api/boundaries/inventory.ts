/**
 * The boundary inventory, computed from the code itself (civitas.boundary-inventory.v1).
 *
 * - Tier 1: every tier-1 module (shared/boundaries/coverage.ts TIER1_MODULES) is imported and its
 *   real exports listed (`Object.keys(namespace)`), beside its BOUNDARY_EXPORT_ROLES declaration.
 * - Tier 2: every published surface (each method of each registry shape, and each MCP tool) is
 *   traced to the module that implements it: the module `defineRoute` / `defineTool` recorded when
 *   the family defined it (what was registered, not a search of the source text), or the Astro page
 *   in site/pages for page shapes, following the page's `apiGet(Astro, '/api/…')` reads. The
 *   module's runtime imports are followed transitively; the boundary exports imported by name
 *   anywhere in that closure are what the surface reaches.
 * - Tier 3: every other code module (api, shared, site, cards) and whether it imports a boundary
 *   export by name itself.
 *
 * The sources do not change while the process runs, so this is computed once per process and
 * cached; the probes themselves run on every census request.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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
import { withoutQuery } from '../../shared/url-path.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Folders whose code modules are inventoried (tier 3) and whose static imports are read for the traces. */
const SCANNED_ROOTS = ['api', 'shared', 'site', 'cards'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.astro', 'public', '.data']);
const CODE_FILE = /\.(ts|mts|mjs|astro)$/;
/**
 * Registration lists: importing one means knowing every family's routes or tools, not calling
 * them, so the trace does not pass through them (else /agents.json would "reach" all 23 through
 * the MCP tool list). Each surface is traced from its own implementing module instead.
 */
export const REGISTRATION_MODULES = new Set(['api/families.ts']);

/** One static import edge: the resolved module and the names it takes (`*` for a namespace). */
interface ImportEdge {
  target: string;
  names: string[];
}

export interface ModuleInfo {
  path: string;
  imports: ImportEdge[];
  /** `apiGet(Astro, '<path>')` literals (Astro pages). */
  apiReads: string[];
}

function listCodeFiles(root: string, dir: string, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const full = join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) listCodeFiles(root, full, out);
    else if (CODE_FILE.test(name) && !name.endsWith('.d.ts'))
      out.push(relative(root, full).split(sep).join('/'));
  }
}

/** Strips comments so commented-out imports and examples in doc comments are not counted. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

function parseNames(clause: string): string[] {
  const names: string[] = [];
  const braces = clause.match(/\{([\s\S]*)\}/)?.[1];
  if (braces !== undefined) {
    for (const part of braces.split(',')) {
      const item = part.trim();
      if (!item || item.startsWith('type ')) continue;
      names.push(item.split(/\s+as\s+/)[0]!.trim()); // split() returns ≥ 1 part
    }
  }
  if (/\*\s+as\s+\w+/.test(clause) || /^\s*\*\s*$/.test(clause)) names.push('*');
  return names;
}

/** Parses a module's runtime imports and re-exports (type-only ones are left out: they call nothing). */
export function parseModule(path: string, source: string): ModuleInfo {
  const code = stripComments(
    path.endsWith('.astro') ? (source.match(/^---\n([\s\S]*?)\n---/)?.[1] ?? '') : source,
  );
  const imports: ImportEdge[] = [];
  const base = dirname(path);
  const resolveSpec = (spec: string): string | null => {
    if (!spec.startsWith('.')) return null;
    return join(base, withoutQuery(spec)).split(sep).join('/');
  };
  // A clause never holds `;`, `=` or parentheses, so a match cannot run across statements.
  const statement = /\b(import|export)\s+(type\s+)?([^;=()'"`]*?)\s+from\s+['"]([^'"]+)['"]/g;
  // Every capture group below but `type\s+` (group 2 of `statement`) is not optional: a match carries it.
  for (const [, keyword, typeOnly, clause, spec] of code.matchAll(statement)) {
    if (typeOnly) continue;
    if (keyword === 'export' && !/^(\{|\*)/.test(clause!.trim())) continue;
    const target = resolveSpec(spec!);
    if (target) imports.push({ target, names: parseNames(clause!) });
  }
  for (const [, spec] of code.matchAll(/\bimport\s+['"]([^'"]+)['"]/g)) {
    const target = resolveSpec(spec!);
    if (target) imports.push({ target, names: [] });
  }
  for (const [, spec] of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const target = resolveSpec(spec!);
    if (target) imports.push({ target, names: ['*'] });
  }
  const apiReads = [...code.matchAll(/apiGet(?:<[^>]*>)?\(\s*Astro\s*,\s*['"`]([^'"`?$]+)/g)].map(
    (m) => m[1]!,
  );
  return { path, imports, apiReads };
}

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
  /**
   * The registered route implementations (IMPLEMENTED_ROUTES) with the module each was defined in;
   * keys not listed are served by a page or 501.
   */
  routes: readonly { key: string; module?: string }[];
  /** The MCP tools the endpoint offers, with the module each was defined in. */
  tools: readonly { name: string; module?: string }[];
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
  const files: string[] = [];
  for (const dir of SCANNED_ROOTS) listCodeFiles(root, join(root, dir), files);
  files.sort();
  const modules = new Map<string, ModuleInfo>();
  for (const file of files) modules.set(file, parseModule(file, readFileSync(join(root, file), 'utf8')));

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

  const implementer = new Map<string, string>();
  for (const route of options.routes) if (route.module) implementer.set(route.key, route.module);
  const toolModule = new Map<string, string>();
  for (const tool of options.tools) if (tool.module) toolModule.set(tool.name, tool.module);
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

/** The coverage object, computed from the code once per process. */
export function processCoverage(options: Omit<ScanOptions, 'namespaces' | 'root'>): Promise<Coverage> {
  cached ??= scanInventory(options).then((scan) => computeCoverage(scan.input));
  // A failed scan is not cached: the next request tries again (and the census reports unaccounted meanwhile).
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}
