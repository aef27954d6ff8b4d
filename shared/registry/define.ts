/**
 * Small builders that keep the route files terse: `const { page, api } = family('ledger')`.
 * Defaults: GET for page, hybrid, api, feed and asset; POST for mutation. `extra.methods` overrides.
 */
import type { Family, HttpMethod, RouteKind, RouteShape } from './types.ts';

export type RouteExtra = Partial<Omit<RouteShape, 'path' | 'kind' | 'family' | 'summary'>>;
type Builder = (path: string, summary: string, extra?: RouteExtra) => RouteShape;

function builder(family: Family, kind: RouteKind, defaults: readonly HttpMethod[]): Builder {
  return (path, summary, extra = {}) => {
    const shape: RouteShape = { path, methods: [...(extra.methods ?? defaults)], kind, family, summary };
    for (const [key, value] of Object.entries(extra)) {
      if (key !== 'methods' && value !== undefined)
        (shape as unknown as Record<string, unknown>)[key] = value;
    }
    return shape;
  };
}

export function family(name: Family): Record<RouteKind, Builder> {
  return {
    page: builder(name, 'page', ['GET']),
    hybrid: builder(name, 'hybrid', ['GET']),
    api: builder(name, 'api', ['GET']),
    feed: builder(name, 'feed', ['GET']),
    asset: builder(name, 'asset', ['GET']),
    mutation: builder(name, 'mutation', ['POST']),
  };
}
