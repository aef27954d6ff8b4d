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
import { at } from '../helpers/elements.ts';

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
  return parts[0] === 'api' && parts.length > 2 && !BASE_FOLDERS.has(at(parts, 1)) ? at(parts, 1) : null;
}

/**
 * Not families in shared/: the registry gathers every family's shapes and contracts (as the wiring
 * file gathers their routes), and the relay client ships apart, importing only the ledger's verifier.
 */
const SHARED_NOT_FAMILIES = new Set(['registry', 'relay-client']);

/** The family of a module in api/ or shared/: `shared/ledger/anchor.ts` is the ledger's as much as `api/ledger/log.ts`. */
function folderFamilyOf(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] === 'shared')
    return parts.length > 2 && !SHARED_NOT_FAMILIES.has(at(parts, 1)) ? at(parts, 1) : null;
  return familyOf(path);
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

  it('the ledger, routes included, imports no family but the boundaries (families register into its registries)', () => {
    expect(
      offending(
        (from, to) =>
          familyOf(from) === 'ledger' &&
          familyOf(to) !== null &&
          !['ledger', 'boundaries'].includes(familyOf(to)!),
      ),
    ).toEqual([]);
  });
});

/**
 * Which family may import which: the edges of docs/ARCHITECTURE.md ("Families and their edges"),
 * counted over api/<family>/ and shared/<family>/ alike (shared/registry, which gathers every
 * family's shapes and contracts, and the relay client are no family). Low families — the ledger
 * (receipts), the boundaries (the projectors every public surface passes, the census) and the
 * Record — are called down into; a lower family reaches a higher one only through a registry it
 * owns and api/families.ts fills (the ledger's change status and subjects, the Record's speakers).
 * A new edge is a design decision: add it here with its reason, or route it through a registry.
 */
const FAMILY_EDGES: Record<string, string[]> = {
  // an agent's draft goes to the Record's sequencer, its receipts to the ledger; the spam projector
  agents: ['boundaries', 'ledger', 'record'],
  // pacts propose orders (the order's title and detail limits); receipts, change status, projectors
  calibration: ['boundaries', 'ledger', 'orders'],
  // the chronicle tells what the other families recorded: it reads them all, nothing reads it
  chronicle: ['agents', 'boundaries', 'calibration', 'people', 'record'],
  governance: ['boundaries', 'ledger'],
  // a person's account holds agent credentials, their due items (calibration, confluences), mail
  identity: ['agents', 'boundaries', 'calibration', 'ledger', 'mail', 'people'],
  // the runner, its registry and its run table: the job list itself is the wiring file's
  jobs: [],
  ledger: ['boundaries'],
  mcp: ['boundaries'],
  // the operator's console: the census, the transparency report, the steward's queue
  operator: ['boundaries', 'ledger', 'steward'],
  orders: ['boundaries', 'ledger'],
  // the organism observes every family (its rooms are read-only views over them) and runs jobs;
  // its dispatch page lists them through the jobs registry
  organism: [
    'agents',
    'boundaries',
    'calibration',
    'governance',
    'jobs',
    'ledger',
    'orders',
    'people',
    'record',
    'treasury',
  ],
  // federation reports feedback into the Record; the status tool reads readiness (health)
  people: ['boundaries', 'health', 'ledger', 'record'],
  record: ['boundaries', 'ledger'],
  // triage and lessons work on the Record's imprints
  steward: ['boundaries', 'ledger', 'record'],
  // paid capabilities are bought by a speaker (a sovereign or a proven agent)
  treasury: ['agents', 'boundaries', 'ledger'],
};

describe('families and their edges', () => {
  it('a family imports only the families it may (FAMILY_EDGES)', () => {
    const stray = offending((from, to) => {
      const [a, b] = [folderFamilyOf(from), folderFamilyOf(to)];
      return a !== null && b !== null && a !== b && !(FAMILY_EDGES[a] ?? []).includes(b);
    });
    expect(stray).toEqual([]);
  });

  it('lists no edge the code does not have (the allow-list stays exact)', () => {
    const used = new Set(
      edges
        .map(([from, to]) => `${folderFamilyOf(from)} -> ${folderFamilyOf(to)}`)
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
          const target = relative(ROOT, join(ROOT, dirname(path), at(match, 1)));
          if (target.startsWith('api/')) found.push(`${path} -> ${target}`);
        }
      }
    }
  };
  walk('site');
  return found;
}
