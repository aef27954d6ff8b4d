import { PUBLISHED_ROUTES, registrableMethods, routeKey } from '../../shared/registry/index.ts';

/**
 * The map of every published route and how it is realised now: the truth behind /atlas and `npm run
 * routes`. `realisations` is what the router recorded for each route key (`app.realisations`,
 * api/router.ts); a key it does not hold is not implemented.
 */
export function atlas(realisations: ReadonlyMap<string, string>) {
  const routes = PUBLISHED_ROUTES.map((shape) => {
    const methods = registrableMethods(shape);
    const states = methods.map(
      (method) => realisations.get(routeKey(method, shape.path)) ?? 'not_implemented',
    );
    const real = states.every((state) => state !== 'not_implemented');
    return {
      path: shape.path,
      methods: shape.methods,
      kind: shape.kind,
      family: shape.family,
      summary: shape.summary,
      scope: shape.scope ?? null,
      real,
    };
  });
  const real = routes.filter((route) => route.real).length;
  const families: Record<string, { total: number; real: number }> = {};
  for (const route of routes) {
    const entry = (families[route.family] ??= { total: 0, real: 0 });
    entry.total += 1;
    if (route.real) entry.real += 1;
  }
  return {
    ok: true as const,
    total: routes.length,
    real,
    not_implemented: routes.length - real,
    families,
    routes,
  };
}
