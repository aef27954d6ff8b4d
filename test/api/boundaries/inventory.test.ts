/**
 * The inventory is computed from the code and from what the families registered: these tests
 * change the code it reads and watch it notice.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeCoverage, TIER1_MODULES } from '../../../shared/boundaries/coverage.ts';
import { CENSUS_ROWS } from '../../../shared/boundaries/rows.ts';
import { pagePathOf, scanInventory, REPO_ROOT } from '../../../api/boundaries/inventory.ts';
import { definersOf, GRAPH_FILE, readModuleGraph } from '../../../api/boundaries/module-graph.ts';
import { buildModuleGraph, parseModule } from '../../../scripts/module-graph.ts';
import { IMPLEMENTED_ROUTES, MCP_TOOLS } from '../../../api/families.ts';
import { PUBLISHED_ROUTES } from '../../../shared/registry/index.ts';

/** The graph of the code on disk, parsed here (the build writes the same to dist/module-graph.json). */
const graph = buildModuleGraph(REPO_ROOT);
const realOptions = () => ({ routes: IMPLEMENTED_ROUTES, tools: MCP_TOOLS, graph });

async function realNamespaces() {
  const namespaces = [];
  for (const module of TIER1_MODULES)
    namespaces.push({
      module,
      exports: { ...((await import(join(REPO_ROOT, module))) as Record<string, unknown>) },
    });
  return namespaces;
}

describe('parsing a module', () => {
  it('keeps runtime imports and re-exports, drops type-only ones and comments, resolves relative paths', () => {
    const info = parseModule(
      'api/x/routes.ts',
      [
        "import type { Coverage } from '../../shared/boundaries/coverage.ts';",
        "import { type CensusBody, runCensus as census, probesFor } from '../../shared/boundaries/census.ts';",
        "import * as spam from '../../shared/boundaries/projectors/spam.ts';",
        "// import { projectEquity } from '../../shared/boundaries/projectors/treasury.ts';",
        "/* import { projectVitals } from '../../shared/boundaries/projectors/treasury.ts'; */",
        "export { hstsHeader } from '../../shared/boundaries/headers/transport.ts';",
        "import fastify from 'fastify';",
        'export const x = 1;',
        "defineRoute('GET /api/x', { handler });",
        "const lazy = await import('./lazy.ts');",
      ].join('\n'),
    );
    expect(info.imports).toEqual([
      { target: 'shared/boundaries/census.ts', names: ['runCensus', 'probesFor'] },
      { target: 'shared/boundaries/projectors/spam.ts', names: ['*'] },
      { target: 'shared/boundaries/headers/transport.ts', names: ['hstsHeader'] },
      { target: 'api/x/lazy.ts', names: ['*'] },
    ]);
  });

  it('reads an Astro page frontmatter and its API reads', () => {
    const info = parseModule(
      'site/pages/boundaries.astro',
      "---\nimport Base from '../layouts/Base.astro';\nconst { body } = await apiGet<Census>(Astro, '/api/boundaries');\n---\n<p>import { x } from './y.ts'</p>",
    );
    expect(info.apiReads).toEqual(['/api/boundaries']);
    expect(info.imports.map((edge) => edge.target)).toEqual(['site/layouts/Base.astro']);
  });

  it('maps page files to registry paths', () => {
    expect(pagePathOf('site/pages/boundaries.astro')).toBe('/boundaries');
    expect(pagePathOf('site/pages/index.astro')).toBe('/');
    expect(pagePathOf('site/pages/changelog/index.astro')).toBe('/changelog');
    expect(pagePathOf('site/pages/changelog/[tag].astro')).toBe('/changelog/{tag}');
    expect(pagePathOf('site/lib/api.ts')).toBeNull();
  });
});

describe('what the families define', () => {
  it('names the one module that defines each registered route and tool, wherever its file lives', () => {
    const definers = definersOf(graph);
    expect(definers.routes.get('GET /api/boundaries')).toBe('api/boundaries/routes.ts');
    expect(definers.tools.get('civitas_boundaries')).toBe('api/boundaries/tools/prove-boundaries.ts');
    for (const { key } of IMPLEMENTED_ROUTES)
      expect(definers.routes.get(key), key).toMatch(/^api\/[a-z0-9/-]+\.ts$/);
    for (const { name } of MCP_TOOLS)
      expect(definers.tools.get(name), name).toMatch(/^api\/[a-z0-9/-]+\.ts$/);
  });

  it('refuses a graph that no longer describes the files on disk', () => {
    const root = mkdtempSync(join(tmpdir(), 'civitas-graph-'));
    mkdirSync(join(root, 'api'), { recursive: true });
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'api', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'dist', GRAPH_FILE), JSON.stringify(buildModuleGraph(root)));
    expect(readModuleGraph(root).files['api/a.ts']?.path).toBe('api/a.ts');
    writeFileSync(join(root, 'api', 'a.ts'), 'export const a = 2;\n');
    expect(() => readModuleGraph(root)).toThrow(/stale .*api\/a\.ts/);
  });
});

describe('the inventory of this repository', () => {
  it('is accounted: every tier-1 export classified, every row anchored, every published surface traced', async () => {
    const scan = await scanInventory(realOptions());
    const coverage = computeCoverage(scan.input);
    expect(coverage.status).toBe('accounted');
    expect(coverage.exhaustive_modules).toBe(TIER1_MODULES.length);
    expect(coverage.roles.censused).toBe(23);
    const published = PUBLISHED_ROUTES.reduce(
      (n, route) =>
        n + Math.max(1, route.methods.filter((m) => !(m === 'HEAD' && route.methods.includes('GET'))).length),
      0,
    );
    expect(coverage.scope.tier2).toBe(published + MCP_TOOLS.length);
    expect(coverage.scope.tier3).toBeGreaterThan(50);
    expect(coverage.scope.unreached_fraction).toBeGreaterThanOrEqual(0);
  });

  it('traces the census surfaces to all 23 authorities, and health to none', async () => {
    const scan = await scanInventory(realOptions());
    const names = (route: string) =>
      new Set((scan.surfaces.get(route) ?? []).map((reach) => reach.slice(reach.indexOf('#') + 1)));
    for (const row of CENSUS_ROWS) {
      expect(names('GET /api/boundaries').has(row.authority), row.authority).toBe(true);
      expect(names('MCP civitas_boundaries').has(row.authority), row.authority).toBe(true);
    }
    expect(names('GET /health').size).toBe(0);
    expect(names('MCP civitas_presence').has('projectPresence')).toBe(true);
    // Listing every tool is not calling them: discovery does not "reach" the census through the tool list.
    expect(names('GET /agents.json').has('projectEquity')).toBe(false);
  });

  it('finds a dangling row when an authority stops being exported', async () => {
    const namespaces = await realNamespaces();
    const treasury = namespaces.find((ns) => ns.module === 'shared/boundaries/projectors/treasury.ts')!;
    delete treasury.exports.projectEquity;
    const coverage = computeCoverage((await scanInventory({ ...realOptions(), namespaces })).input);
    expect(coverage.dangling_rows).toEqual(['equity_projection']);
    expect(coverage.dangling_anchors).toEqual(['shared/boundaries/projectors/treasury.ts#projectEquity']);
    expect(coverage.status).toBe('unaccounted');
  });

  it('finds an unclassified export and an orphaned projector', async () => {
    const namespaces = await realNamespaces();
    const spam = namespaces.find((ns) => ns.module === 'shared/boundaries/projectors/spam.ts')!;
    spam.exports.projectNewThing = () => ({});
    spam.exports.BOUNDARY_EXPORT_ROLES = {
      ...(spam.exports.BOUNDARY_EXPORT_ROLES as object),
      projectOrphan: 'censused',
    };
    spam.exports.projectOrphan = () => ({});
    const coverage = computeCoverage((await scanInventory({ ...realOptions(), namespaces })).input);
    expect(coverage.unclassified).toEqual(['shared/boundaries/projectors/spam.ts#projectNewThing']);
    expect(coverage.orphans).toEqual(['shared/boundaries/projectors/spam.ts#projectOrphan']);
    expect(coverage.ok).toBe(false);
  });

  it('traces a new surface from the files on disk, and counts one that reaches nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'civitas-inventory-'));
    const write = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write(
      'api/people/routes.ts',
      "import { presence } from './presence.ts';\nexport const r = [defineRoute('GET /api/presence', { handler: presence })];",
    );
    write(
      'api/people/presence.ts',
      "import { projectPresence } from '../../shared/boundaries/projectors/gatherings.ts';\nexport const presence = () => projectPresence({});",
    );
    write(
      'api/health/routes.ts',
      "export const r = [defineRoute('GET /api/version', { handler: () => ({}) })];",
    );
    const routes = [{ key: 'GET /api/presence' }, { key: 'GET /api/version' }];
    const scan = await scanInventory({
      routes,
      tools: [],
      root,
      graph: buildModuleGraph(root),
      namespaces: await realNamespaces(),
    });
    expect(scan.surfaces.get('GET /api/presence')).toEqual([
      'shared/boundaries/projectors/gatherings.ts#projectPresence',
    ]);
    expect(scan.surfaces.get('GET /api/version')).toEqual([]);
    expect(scan.input.modules).toEqual([
      { path: 'api/health/routes.ts', reaches: false },
      { path: 'api/people/presence.ts', reaches: true },
      { path: 'api/people/routes.ts', reaches: false },
    ]);
  });
});
