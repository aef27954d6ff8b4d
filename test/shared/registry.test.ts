import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  ADDED_AFTER_LISTING,
  PATH_PARAMS,
  PUBLISHED_COUNT,
  PUBLISHED_ROUTES,
  ROUTE_KEYS,
  ROUTES,
  SCOPES,
  concreteAssetPath,
  fillPath,
  findPath,
  findRoute,
  isStaticPlaceholder,
  matchStaticPlaceholder,
  pathParams,
  placeholderPattern,
  registrableMethods,
  routeKey,
  toFastifyPath,
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

const published = new Map(PUBLISHED_ROUTES.map((r) => [r.path, r]));
const shape = (path: string): RouteShape => {
  const s = published.get(path);
  if (!s) throw new Error(`not published: ${path}`);
  return s;
};

/** One sample value per path parameter name (INTERFACE.md: all strings). */
const SAMPLE: Record<string, string> = {
  id: 'rcpt_01HZX3Q9K7',
  handle: 'ada.bot',
  entity: 'agent:ada.bot',
  token: 'tok_abc123',
  tag: 'v0.1.0',
  claim: 'c42',
  surface: 'ledger',
  date: '2025-01-02',
  release: '7',
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

describe('helpers', () => {
  it('builds and finds keys', () => {
    expect(routeKey('GET', '/api/agent/{handle}')).toBe('GET /api/agent/{handle}');
    expect(findRoute('GET /api/agent/{handle}')?.path).toBe('/api/agent/{handle}');
    expect(findRoute('POST /api/agent/{handle}')).toBeUndefined();
    expect(findRoute('HEAD /settings/data')?.scope).toBe('sovereign:read');
    expect(ROUTE_KEYS.has('POST /mcp')).toBe(true);
    expect(ROUTE_KEYS.has('GET /operator')).toBe(true);
    expect(ROUTE_KEYS.size).toBe(ROUTES.reduce((n, r) => n + r.methods.length, 0));
  });

  it('converts path templates to find-my-way syntax', () => {
    expect(toFastifyPath('/verify/inclusion/{date}/{id}')).toBe('/verify/inclusion/:date/:id');
    expect(toFastifyPath('/og/{surface}.png')).toBe('/og/:surface.png');
    expect(toFastifyPath('/receipt/sov{release}-fixture/card.svg')).toBe(
      '/receipt/sov:release-fixture/card.svg',
    );
    expect(toFastifyPath('/')).toBe('/');
  });

  it('leaves HEAD to Fastify when GET is declared', () => {
    expect(registrableMethods(shape('/steward/data-requests'))).toEqual(['GET', 'POST']);
    expect(registrableMethods(shape('/settings/data'))).toEqual(['GET']);
    expect(registrableMethods(shape('/pledge'))).toEqual(['POST']);
  });

  it('recognises built asset names and substitutes them', () => {
    expect(matchStaticPlaceholder('/theme.3fa9c1d2.css')?.path).toBe('/theme.<hash>.css');
    expect(matchStaticPlaceholder('/font/inter.9b1e22aa.woff2')?.path).toBe('/font/<name>.<hash>.woff2');
    expect(matchStaticPlaceholder('/theme.css')).toBeUndefined();
    expect(matchStaticPlaceholder('/font/../x.3fa9c1d2.woff2')).toBeUndefined();
    expect(placeholderPattern('/theme.<hash>.css').test('/themeX3fa9c1d2.css')).toBe(false);
    expect(concreteAssetPath('/theme.<hash>.css', { theme: '/theme.3fa9c1d2.css' })).toBe(
      '/theme.3fa9c1d2.css',
    );
    expect(concreteAssetPath('/font/<name>.<hash>.woff2', { font: 'inter.9b1e22aa.woff2' })).toBe(
      '/font/inter.9b1e22aa.woff2',
    );
    expect(concreteAssetPath('/theme.<hash>.css', undefined)).toBe('/theme.<hash>.css');
    expect(fillPath('/api/why/{entity}', { entity: 'agent:ada' })).toBe('/api/why/agent%3Aada');
  });
});

describe('Fastify registration', () => {
  it('registers every shape and method without conflict, and each concrete path reaches its shape', async () => {
    const app = Fastify();
    let registered = 0;
    for (const r of ROUTES) {
      if (isStaticPlaceholder(r)) continue; // served by the static-file server
      for (const method of registrableMethods(r)) {
        app.route({
          method,
          url: toFastifyPath(r.path),
          handler: async (_request, reply) => {
            reply.header('x-shape', r.path);
            return { shape: r.path };
          },
        });
        registered += 1;
      }
    }
    await app.ready();
    expect(registered).toBeGreaterThan(PUBLISHED_COUNT);

    for (const r of ROUTES) {
      if (isStaticPlaceholder(r)) continue;
      const url = fillPath(r.path, SAMPLE);
      for (const method of r.methods) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(200);
        expect(res.headers['x-shape'], `${method} ${url}`).toBe(r.path);
      }
    }

    // The fixture card and the receipt card share a prefix; each request lands on its own shape.
    const card = async (url: string) => (await app.inject({ method: 'GET', url })).headers['x-shape'];
    expect(await card('/receipt/sov12-fixture/card.svg')).toBe('/receipt/sov{release}-fixture/card.svg');
    expect(await card('/receipt/sovereign/card.svg')).toBe('/receipt/{id}/card.svg');
    expect(await card('/receipt/rcpt_01HZX3Q9K7/card.svg')).toBe('/receipt/{id}/card.svg');
    expect(await card('/receipt/missing')).toBe('/receipt/missing');
    expect(await card('/api/agent/certificate')).toBe('/api/agent/certificate');
    await app.close();
  });
});
