import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  computeCoverage,
  isFullyAccounted,
  TIER1_MODULES,
  type Tier1Export,
} from '../../../shared/boundaries/coverage.ts';
import { CENSUS_ROWS } from '../../../shared/boundaries/rows.ts';
import { accountedCoverage, tier1Inventory } from './helpers.ts';
import { at } from '../../helpers/elements.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('tier 1 of the real boundary modules', () => {
  it('lists every .ts file under shared/boundaries', () => {
    const files = (readdirSync(`${root}shared/boundaries`, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `shared/boundaries/${file}`);
    expect([...TIER1_MODULES].sort()).toEqual(files.sort());
  });

  it('is fully accounted: every export classified, every row anchored, no orphan', async () => {
    const coverage = await accountedCoverage();
    expect(coverage).toMatchObject({
      schema: 'civitas.boundary-inventory.v1',
      status: 'accounted',
      ok: true,
      exhaustive_modules: TIER1_MODULES.length,
      census_rows: 23,
      unclassified: [],
      orphans: [],
      unrecognised_roles: [],
      dangling_rows: [],
      dangling_anchors: [],
      rows_without_authority: [],
      impossible_population: [],
    });
    expect(coverage.roles.censused).toBe(23);
    const { censused, component, vocabulary, resolver } = coverage.roles;
    expect(censused + component + vocabulary + resolver).toBe(coverage.exports_inventoried);
    expect(coverage.declarations).toBe(coverage.exports_inventoried);
    expect(isFullyAccounted(coverage)).toBe(true);
  });

  it('answers every coverage field INTERFACE.md lists', async () => {
    const coverage = await accountedCoverage();
    expect(Object.keys(coverage)).toEqual([
      'schema',
      'authority',
      'status',
      'ok',
      'basis',
      'exhaustive_modules',
      'named_export_modules',
      'scope',
      'unreached_scope',
      'exports_inventoried',
      'declarations',
      'census_rows',
      'roles',
      'unclassified',
      'orphans',
      'unrecognised_roles',
      'dangling_rows',
      'dangling_anchors',
      'rows_without_authority',
      'impossible_population',
    ]);
    expect(Object.keys(coverage.scope)).toEqual([
      'tier1',
      'tier2',
      'tier3',
      'registered_exports',
      'reached_exports',
      'unreached_exports',
      'unreached_fraction',
    ]);
    expect(Object.keys(coverage.roles)).toEqual(['censused', 'component', 'vocabulary', 'resolver']);
  });
});

describe('coverage on a crafted inventory', () => {
  const rows = CENSUS_ROWS;
  const authorities: Tier1Export[] = rows.map((row) => ({
    module: 'shared/boundaries/p.ts',
    name: row.authority,
    role: 'censused',
  }));
  const clean = {
    tier1Exports: [
      ...authorities,
      { module: 'shared/boundaries/k.ts', name: 'KEYS', role: 'vocabulary' },
      { module: 'shared/boundaries/k.ts', name: 'helper', role: 'component' },
    ],
    surfaces: [
      { route: 'GET /api/presence', reaches: ['shared/boundaries/p.ts#projectPresence'] },
      { route: 'GET /api/state', reaches: ['projectActorRef', 'projectQuarantine'] },
      { route: 'GET /health', reaches: [] },
    ],
    modules: [
      { path: 'api/people/routes.ts', reaches: true },
      { path: 'api/health/routes.ts', reaches: false },
    ],
  };

  it('is accounted when clean, and states the partial tiers', () => {
    const coverage = computeCoverage(clean);
    expect(coverage.ok).toBe(true);
    expect(coverage.scope).toEqual({
      tier1: 2,
      tier2: 3,
      tier3: 2,
      registered_exports: 23,
      reached_exports: 3,
      unreached_exports: 20,
      unreached_fraction: 0.8696,
    });
    expect(coverage.unreached_scope).toMatchObject({ surfaces_unreached: 1, modules_unreached: 1 });
    expect(coverage.named_export_modules).toBe(1);
  });

  it('finds one orphan, one dangling row, one unclassified export and one dangling anchor', () => {
    const withoutEquity = clean.tier1Exports.filter((e) => e.name !== 'projectEquity');
    const coverage = computeCoverage({
      ...clean,
      tier1Exports: [
        ...withoutEquity,
        { module: 'shared/boundaries/p.ts', name: 'projectSecretDiary', role: 'censused' },
        { module: 'shared/boundaries/p.ts', name: 'debugDump' },
      ],
      declarations: [
        ...withoutEquity.map((e) => ({ module: e.module, name: e.name, role: e.role as string })),
        { module: 'shared/boundaries/p.ts', name: 'projectSecretDiary', role: 'censused' },
        { module: 'shared/boundaries/p.ts', name: 'removedHelper', role: 'component' },
      ],
    });
    expect(coverage.orphans).toEqual(['shared/boundaries/p.ts#projectSecretDiary']);
    expect(coverage.dangling_rows).toEqual(['equity_projection']);
    expect(coverage.unclassified).toEqual(['shared/boundaries/p.ts#debugDump']);
    expect(coverage.dangling_anchors).toEqual(['shared/boundaries/p.ts#removedHelper']);
    expect(coverage.rows_without_authority).toEqual([]);
    expect(coverage).toMatchObject({ ok: false, status: 'unaccounted' });
    expect(isFullyAccounted(coverage)).toBe(false);
  });

  it('finds rows without authority, unrecognised roles and impossible populations', () => {
    const rowsMissingOne = rows.map((row) => (row.key === 'held_spam' ? { ...row, authority: '' } : row));
    const coverage = computeCoverage(
      {
        ...clean,
        tier1Exports: [
          ...clean.tier1Exports,
          { module: 'shared/boundaries/k.ts', name: 'odd', role: 'decoration' },
          at(clean.tier1Exports, 0),
        ],
        surfaces: [{ route: 'GET /api/ghost', reaches: ['projectGhost'] }],
      },
      rowsMissingOne,
    );
    expect(coverage.rows_without_authority).toEqual(['held_spam']);
    expect(coverage.unrecognised_roles).toEqual(['shared/boundaries/k.ts#odd: decoration']);
    expect(coverage.impossible_population).toEqual([
      'shared/boundaries/p.ts#projectActorRef is inventoried twice',
      'GET /api/ghost reaches projectGhost, which no boundary module exports',
    ]);
    expect(computeCoverage(clean, rows.slice(1)).impossible_population).toEqual([
      'the rows are not the 23 boundary keys in their order',
    ]);
  });

  it('reads the real declarations through tier1FromNamespaces', async () => {
    const { tier1Exports, declarations } = await tier1Inventory();
    expect(tier1Exports.some((e) => e.name === 'runCensus' && e.role === 'resolver')).toBe(true);
    expect(declarations?.length).toBe(tier1Exports.length);
  });
});
