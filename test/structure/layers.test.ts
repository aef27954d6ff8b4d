/**
 * The layering of docs/ARCHITECTURE.md ("Layers"), checked on the real import graph (dpdm, type-only
 * imports included): no import cycle anywhere in api/, shared/, site/ and cards/, and no import that
 * runs up the layers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree, shortenTree, type DependencyTree } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The site host (api/site/: Astro's SSR adapter, static files, the in-process client): the only code of api/ that reaches site/. */
const isSiteHost = (path: string) => path.startsWith('api/site/');
/** The top of api/: only these may know every family. */
const TOP = new Set(['api/app.ts', 'api/server.ts', 'api/cluster.ts', 'api/families.ts']);
/** The base of api/, below every family: contracts, context, configuration, database, plugins, and the site host. */
const BASE_FOLDERS = new Set(['db', 'plugins', 'site']);
/**
 * Declaration lists: they gather every family's declarations (personal data, entities) and import
 * nothing else, so they stay low enough for any family to read.
 */
const DECLARATION_LISTS = new Set(['api/personal-data.ts', 'api/db/entities.ts']);
const DECLARATION = /(^|\/)(personal-data|personal-data-contract|entities)\.ts$/;
/** Registration modules: a family's route and tool lists and its tools (one file each), which only the wiring file reaches. */
const REGISTRATION = /(^|\/|-)(routes|mcp)\d*\.ts$|\/tools\/[^/]+\.ts$/;

let edges: [from: string, to: string][];
let tree: DependencyTree;

beforeAll(async () => {
  const parsed = await parseDependencyTree(
    ['api/**/*.ts', 'shared/**/*.ts', 'site/**/*.ts', 'cards/**/*.ts'],
    { cwd: ROOT, context: ROOT },
  );
  tree = shortenTree(ROOT, parsed);
  edges = Object.entries(tree).flatMap(([from, deps]) =>
    (deps ?? [])
      .filter((dep) => dep.id && !dep.id.includes('node_modules'))
      .map((dep): [string, string] => [from, dep.id!]),
  );
}, 60_000);

/** `api/ledger/log.ts` → `ledger`; root modules of api/ and other folders → null. */
function familyOf(path: string): string | null {
  const parts = path.split('/');
  return parts[0] === 'api' && parts.length > 2 && !BASE_FOLDERS.has(parts[1]) ? parts[1] : null;
}

const offending = (rule: (from: string, to: string) => boolean) =>
  edges.filter(([from, to]) => rule(from, to)).map(([from, to]) => `${from} -> ${to}`);

describe('the import graph', () => {
  it('covers the code (a broken parse would prove nothing)', () => {
    expect(Object.keys(tree).filter((path) => path.startsWith('api/')).length).toBeGreaterThan(150);
    expect(edges.length).toBeGreaterThan(500);
  });

  it('has no cycle, type-only imports included', () => {
    expect(parseCircular(tree).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });
});

describe('the layers', () => {
  it('shared/ and cards/ import nothing from api/ or site/', () => {
    expect(offending((from, to) => /^(shared|cards)\//.test(from) && /^(api|site)\//.test(to))).toEqual([]);
  });

  it('site/ code imports nothing from api/ (pages read the API over HTTP and share types through shared/)', () => {
    expect(offending((from, to) => from.startsWith('site/') && to.startsWith('api/'))).toEqual([]);
    expect(astroImportsOfApi()).toEqual([]);
  });

  it('api/ reaches site/ only through the site host module', () => {
    expect(
      offending((from, to) => from.startsWith('api/') && to.startsWith('site/') && !isSiteHost(from)),
    ).toEqual([]);
  });

  it('no family imports the top of api/ (app, server, cluster, the wiring file) or the router', () => {
    expect(
      offending((from, to) => familyOf(from) !== null && (TOP.has(to) || to === 'api/router.ts')),
    ).toEqual([]);
  });

  it('the base of api/ (route and tool contracts, context, config, db, plugins) imports no family', () => {
    const base = (path: string) =>
      path.startsWith('api/') && familyOf(path) === null && !TOP.has(path) && !DECLARATION_LISTS.has(path);
    expect(offending((from, to) => base(from) && familyOf(to) !== null)).toEqual([]);
  });

  it('the declaration lists (personal data, entities) import only declarations', () => {
    const allowed = (to: string) =>
      DECLARATION.test(to) || to.startsWith('shared/') || to.startsWith('api/db/');
    expect(offending((from, to) => DECLARATION_LISTS.has(from) && !allowed(to))).toEqual([]);
  });

  it("no family imports another family's route or tool list (only the wiring file knows them)", () => {
    expect(
      offending(
        (from, to) =>
          familyOf(from) !== null &&
          familyOf(to) !== null &&
          familyOf(from) !== familyOf(to) &&
          REGISTRATION.test(to),
      ),
    ).toEqual([]);
  });

  it('the ledger below its routes imports no other family (families register into its change-status registry)', () => {
    expect(
      offending(
        (from, to) =>
          familyOf(from) === 'ledger' &&
          !REGISTRATION.test(from) &&
          familyOf(to) !== null &&
          familyOf(to) !== 'ledger',
      ),
    ).toEqual([]);
  });
});

/**
 * Which family may import which: the edges of docs/ARCHITECTURE.md ("Families and their edges").
 * The ledger, the Record and the base sit low; families above call down into them, and a lower
 * family reaches a higher one only through a registry it owns (change-status, jobs). A new edge is
 * a design decision: add it here with the reason, or route it through a registry.
 */
const FAMILY_EDGES: Record<string, string[]> = {
  agents: ['ledger', 'mcp', 'record'],
  calibration: ['ledger', 'steward'],
  chronicle: ['agents', 'boundaries', 'calibration', 'people', 'record'],
  governance: ['ledger', 'steward'],
  identity: ['agents', 'calibration', 'ledger', 'mail', 'people'],
  jobs: ['calibration', 'identity', 'ledger', 'organism', 'people'],
  // to break: /verify/court/{id} belongs with the court (governance), not the ledger
  ledger: ['governance', 'mcp'],
  operator: ['boundaries', 'ledger', 'steward'],
  orders: ['ledger', 'steward'],
  organism: [
    'agents',
    'boundaries',
    'calibration',
    'jobs',
    'ledger',
    'mcp',
    'orders',
    'people',
    'record',
    'treasury',
  ],
  people: ['health', 'ledger', 'mcp', 'record'],
  // to break: the record's doors resolve their speaker through the agents family
  record: ['agents', 'ledger', 'mcp'],
  steward: ['ledger', 'mcp', 'record'],
  treasury: ['agents', 'ledger'],
};

describe('families and their edges', () => {
  it('a family imports only the families it may (FAMILY_EDGES)', () => {
    const stray = offending((from, to) => {
      const [a, b] = [familyOf(from), familyOf(to)];
      return a !== null && b !== null && a !== b && !(FAMILY_EDGES[a] ?? []).includes(b);
    });
    expect(stray).toEqual([]);
  });

  it('lists no edge the code does not have (the allow-list stays exact)', () => {
    const used = new Set(
      edges
        .map(([from, to]) => `${familyOf(from)} -> ${familyOf(to)}`)
        .filter((edge) => !edge.includes('null')),
    );
    const unused = Object.entries(FAMILY_EDGES).flatMap(([a, bs]) =>
      bs.map((b) => `${a} -> ${b}`).filter((edge) => !used.has(edge)),
    );
    expect(unused).toEqual([]);
  });
});

/** Relative imports in Astro frontmatter that land in api/ (dpdm reads .ts only). */
function astroImportsOfApi(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.astro')) {
        const frontmatter = readFileSync(join(ROOT, path), 'utf8').match(/^---\n([\s\S]*?)\n---/)?.[1] ?? '';
        for (const match of frontmatter.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]/g)) {
          const target = relative(ROOT, join(ROOT, dirname(path), match[1]));
          if (target.startsWith('api/')) found.push(`${path} -> ${target}`);
        }
      }
    }
  };
  walk('site');
  return found;
}
