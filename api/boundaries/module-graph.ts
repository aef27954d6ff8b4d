/**
 * The module graph the build wrote (scripts/module-graph.ts → dist/module-graph.json), read by the
 * boundary inventory. The graph is trusted only if it describes the code on disk: every scanned
 * file is hashed and compared, so a file edited, added or removed since `npm run build` makes the
 * inventory fail loudly (the census then reports itself unaccounted) instead of tracing old code.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const GRAPH_FILE = 'module-graph.json';
/** Folders whose code modules are inventoried and traced. */
export const SCANNED_ROOTS = ['api', 'shared', 'site', 'cards'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.astro', 'public', '.data']);

/** A code module the graph covers (`.d.ts` declares, it runs nothing). */
export const isScannedFile = (name: string): boolean =>
  /\.(ts|mts|mjs|astro)$/.test(name) && !name.endsWith('.d.ts');

/** One static import edge: the resolved module and the names it takes (`*` for a namespace). */
export interface ImportEdge {
  target: string;
  names: string[];
}

export interface ModuleInfo {
  path: string;
  imports: ImportEdge[];
  /** `apiGet(Astro, '<path>')` reads (Astro pages). */
  apiReads: string[];
  /** Route keys the module defines (`defineRoute('GET /x', …)`). */
  routes: string[];
  /** MCP tool names the module defines (`defineTool({ name: 'civitas_x', … })`). */
  tools: string[];
}

export interface ModuleGraph {
  files: Record<string, ModuleInfo & { sha256: string }>;
}

/** A file's content hash, as the graph records it. */
export const contentHash = (source: string | Buffer): string =>
  createHash('sha256').update(source).digest('hex');

/** Every scanned code file under `root`, as repository paths, sorted (the build parses these). */
export function scannedFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (isScannedFile(entry.name)) found.push(relative(root, full).split(sep).join('/'));
    }
  };
  for (const top of SCANNED_ROOTS) {
    try {
      walk(join(root, top));
    } catch {
      // a root the checkout does not have (a fixture repository) has no files
    }
  }
  return found.sort();
}

/** The build's graph of the code under `root`; throws if it is missing or describes other code. */
export function readModuleGraph(root: string): ModuleGraph {
  let graph: ModuleGraph;
  try {
    graph = JSON.parse(readFileSync(join(root, 'dist', GRAPH_FILE), 'utf8')) as ModuleGraph;
  } catch {
    throw new Error(`no dist/${GRAPH_FILE}: run npm run build`);
  }
  const onDisk = new Map(
    scannedFiles(root).map((path) => [path, contentHash(readFileSync(join(root, path)))]),
  );
  const changed = [...new Set([...onDisk.keys(), ...Object.keys(graph.files)])].filter(
    (path) => onDisk.get(path) !== graph.files[path]?.sha256,
  );
  if (changed.length)
    throw new Error(
      `dist/${GRAPH_FILE} is stale (${changed.length} file(s) changed since npm run build, e.g. ${changed.slice(0, 3).join(', ')})`,
    );
  return graph;
}

/** Which module defines each route key and each MCP tool, by the graph's definitions. */
export function definersOf(graph: ModuleGraph): { routes: Map<string, string>; tools: Map<string, string> } {
  const routes = new Map<string, string>();
  const tools = new Map<string, string>();
  for (const info of Object.values(graph.files)) {
    for (const key of info.routes) routes.set(key, info.path);
    for (const name of info.tools) tools.set(name, info.path);
  }
  return { routes, tools };
}
