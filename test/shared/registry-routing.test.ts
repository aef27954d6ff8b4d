import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  PUBLISHED_COUNT,
  ROUTE_KEYS,
  ROUTES,
  concreteAssetPath,
  fillPath,
  findPath,
  findRoute,
  isStaticPlaceholder,
  matchStaticPlaceholder,
  placeholderPattern,
  registrableMethods,
  routeKey,
  toFastifyPath,
} from '../../shared/registry/index.ts';
import { requests } from '../helpers/http.ts';
import { missing } from '../helpers/elements.ts';

/**
 * From the registry to a router: route keys, path templates in find-my-way syntax, the methods
 * registered (HEAD left to Fastify), built asset names, and every shape registered on a bare Fastify
 * without conflict, each concrete path reaching its own shape. What the registry holds, checked
 * against INTERFACE.md, is registry.test.ts.
 */
const shape = (path: string) => findPath(path) ?? missing();

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
    const { raw } = requests(() => app);
    const card = async (url: string) => (await raw(url)).headers['x-shape'];
    expect(await card('/receipt/sov12-fixture/card.svg')).toBe('/receipt/sov{release}-fixture/card.svg');
    expect(await card('/receipt/sovereign/card.svg')).toBe('/receipt/{id}/card.svg');
    expect(await card('/receipt/rcpt_01HZX3Q9K7/card.svg')).toBe('/receipt/{id}/card.svg');
    expect(await card('/receipt/missing')).toBe('/receipt/missing');
    expect(await card('/api/agent/certificate')).toBe('/api/agent/certificate');
    await app.close();
  });
});
