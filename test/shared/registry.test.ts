import { describe, expect, it } from 'vitest';
import {
  ADDED_AFTER_LISTING,
  PATH_PARAMS,
  PUBLISHED_COUNT,
  PUBLISHED_ROUTES,
  ROUTES,
  SCOPES,
  findPath,
  isStaticPlaceholder,
  pathParams,
} from '../../shared/registry/index.ts';
import type { RouteShape } from '../../shared/registry/index.ts';
import {
  AGENT_EXCHANGE,
  ALIASES,
  EXPLICIT_METHODS,
  EXTERNAL_AUTHORITY,
  HYBRIDS,
  INTERFACE_PATHS,
  JSON_READS,
  MUTATIONS,
  PUBLIC_ACTOR,
  SCOPED_HTML,
  SCOPE_TABLE,
} from '../fixtures/interface-paths.ts';
import { ASSETS, FEEDS, OPERATOR, PAGES } from '../fixtures/interface-pages.ts';

/**
 * What the registry holds, checked against INTERFACE.md as the fixtures copy it: 279 published
 * shapes and their paths, methods and kinds, scopes, aliases, external authorities, public actors,
 * and the operator surfaces kept out. Turning it into routes is registry-routing.test.ts.
 */
const published = new Map(PUBLISHED_ROUTES.map((r) => [r.path, r]));
const shape = (path: string): RouteShape => {
  const s = published.get(path);
  if (!s) throw new Error(`not published: ${path}`);
  return s;
};

describe('registry counts', () => {
  it('publishes exactly 279 shapes', () => {
    expect(PUBLISHED_COUNT).toBe(279);
    expect(PUBLISHED_ROUTES).toHaveLength(279);
  });

  it('has no duplicate paths', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('holds every path INTERFACE.md names (270) plus 9 that sort after /verify/{id}', () => {
    expect(INTERFACE_PATHS).toHaveLength(270);
    for (const p of INTERFACE_PATHS) expect(published.has(p), p).toBe(true);
    expect(INTERFACE_PATHS.filter((p) => p > '/verify/{id}')).toEqual([]);
    const extra = [...published.keys()].filter((p) => !INTERFACE_PATHS.includes(p)).sort();
    expect(extra).toEqual([...ADDED_AFTER_LISTING]);
    expect(ADDED_AFTER_LISTING).toEqual([
      '/vigilance',
      '/vitals',
      '/vitals/changes',
      '/wallet',
      '/why/{entity}',
      '/window',
      '/witness',
      '/witness/feed.xml',
      '/witness/receipt/{token}',
    ]);
  });

  it('gives every shape a family, a kind, methods and a one-line summary', () => {
    for (const r of ROUTES) {
      expect(r.methods.length, r.path).toBeGreaterThan(0);
      expect(new Set(r.methods).size, r.path).toBe(r.methods.length);
      expect(r.summary.length, r.path).toBeGreaterThan(5);
      expect(r.summary, r.path).not.toMatch(/\n/);
      expect(r.path.startsWith('/'), r.path).toBe(true);
    }
  });

  it('uses only the path parameters INTERFACE.md allows; placeholders only for the two hashed assets', () => {
    for (const r of ROUTES) {
      for (const p of pathParams(r.path)) expect(PATH_PARAMS, r.path).toContain(p);
      expect(r.path.replace(/\{[a-z]+\}/g, ''), r.path).not.toMatch(/[{}]/);
    }
    expect(
      ROUTES.filter((r) => isStaticPlaceholder(r))
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/font/<name>.<hash>.woff2', '/theme.<hash>.css']);
  });
});

describe('methods and kinds', () => {
  it('declares the methods INTERFACE.md states explicitly', () => {
    for (const [path, methods] of Object.entries(EXPLICIT_METHODS)) {
      expect([...shape(path).methods].sort(), path).toEqual([...methods].sort());
    }
    expect(shape('/initiate').methods).toEqual(['GET', 'POST']);
    expect(shape('/return').methods).toEqual(['GET', 'POST']);
  });

  it('declares HEAD only where INTERFACE.md names it', () => {
    const withHead = ROUTES.filter((r) => r.methods.includes('HEAD'))
      .map((r) => r.path)
      .sort();
    const named = Object.entries(EXPLICIT_METHODS)
      .filter(([, m]) => m.includes('HEAD'))
      .map(([p]) => p)
      .sort();
    expect(withHead).toEqual(named);
  });

  it('marks feeds, assets, reads, mutations, pages and hybrids', () => {
    for (const p of FEEDS) expect(shape(p).kind, p).toBe('feed');
    for (const p of ASSETS) expect(shape(p).kind, p).toBe('asset');
    for (const p of [...JSON_READS, ...PUBLIC_ACTOR]) expect(shape(p).kind, p).toBe('api');
    for (const p of MUTATIONS) expect(shape(p).kind, p).toBe('mutation');
    for (const p of HYBRIDS) expect(shape(p).kind, p).toBe('hybrid');
    for (const p of PAGES) {
      if (!(HYBRIDS as readonly string[]).includes(p)) expect(shape(p).kind, p).toBe('page');
    }
    for (const p of SCOPED_HTML) expect(['page', 'hybrid'], p).toContain(shape(p).kind);
    for (const p of [
      '/api/agent/imprint',
      '/feedback/report',
      '/feedback/mine/clear',
      '/imprint/report',
      '/api/quick-imprint',
    ]) {
      expect(shape(p).kind, p).toBe('mutation');
    }
    for (const p of [
      '/api/agent/{handle}',
      '/api/agent/certificate',
      '/api/feedback',
      '/imprint/live',
      '/collaborate/live',
      '/mcp',
    ]) {
      expect(shape(p).kind, p).toBe('api');
    }
    expect(shape('/collaborate').kind).toBe('page');
    expect(AGENT_EXCHANGE).toContain('/collaborate');
  });

  it('makes reads, pages, feeds and assets GET unless INTERFACE.md says otherwise, mutations POST', () => {
    for (const r of PUBLISHED_ROUTES) {
      if (EXPLICIT_METHODS[r.path] || r.path === '/initiate' || r.path === '/return') continue;
      if (r.kind === 'mutation') expect(r.methods, r.path).toEqual(['POST']);
      else if (r.path !== '/api/agent/certificate/verify') expect(r.methods, r.path).toEqual(['GET']);
    }
    expect(shape('/api/agent/certificate/verify').methods).toEqual(['POST']);
  });
});

describe('scopes and markers', () => {
  it('attaches every scope of the Authentication table to exactly its routes', () => {
    expect(Object.keys(SCOPE_TABLE).sort()).toEqual([...SCOPES].sort());
    for (const scope of SCOPES) {
      const routes = PUBLISHED_ROUTES.filter((r) => r.scope === scope)
        .map((r) => r.path)
        .sort();
      expect(routes, scope).toEqual([...(SCOPE_TABLE[scope] ?? [])].sort());
    }
  });

  it('marks the alias pages INTERFACE.md names, and only those', () => {
    const aliases = PUBLISHED_ROUTES.filter((r) => r.alias)
      .map((r) => r.path)
      .sort();
    expect(aliases).toEqual([...ALIASES].sort());
    for (const r of ROUTES.filter((x) => x.alias)) {
      expect(r.aliasOf, r.path).toBeDefined();
      expect(findPath(r.aliasOf!), r.path).toBeDefined();
    }
  });

  it('marks external authorities and public actors', () => {
    const ext = Object.fromEntries(
      PUBLISHED_ROUTES.filter((r) => r.externalAuthority).map((r) => [r.path, r.externalAuthority]),
    );
    expect(ext).toEqual(EXTERNAL_AUTHORITY);
    const actors = PUBLISHED_ROUTES.filter((r) => r.publicActor)
      .map((r) => r.path)
      .sort();
    expect(actors).toEqual([...PUBLIC_ACTOR].sort());
    for (const p of PUBLIC_ACTOR) expect(shape(p).publicActor).toBe('required');
  });

  it('keeps operator surfaces out of the published set', () => {
    for (const p of OPERATOR) {
      expect(findPath(p)?.operator, p).toBe(true);
      expect(published.has(p), p).toBe(false);
    }
    expect(findPath('/dashboard')?.alias).toBe(true);
    expect(PUBLISHED_ROUTES.some((r) => r.operator || r.family === 'operator')).toBe(false);
  });
});
