/**
 * The route registry: every route shape of civitas, the single source the API registers from and
 * /openapi.json is generated from (shared/openapi.ts).
 *
 * How the 279 published shapes are counted (one shape = one path template; its methods live inside it).
 * From INTERFACE.md "Endpoints", each path counted once, in the order the sections come:
 *   MCP                                   1  (/mcp)
 *   Agent exchange                       16
 *   JSON read endpoints                  81  (the list, /_health … /verify/{id})
 *   Public-actor reads                    3  (/api/cost-oracle, /api/mirror, /api/progress)
 *   Method variants                       1  (/api/experiments/prevention; /api/oracle is already a read)
 *   JSON mutation endpoints              37
 *   Scoped HTML operations                5
 *   HTML pages                           85  (87 listed, minus /dashboard and /operator which are
 *                                             operator; includes /expeditions/recovery-paradox, /experiments)
 *   Feeds                                10  (12 listed; /imprint/feed.json, /collaborate/feed.json
 *                                             already counted under Agent exchange)
 *   Assets                               31  (incl. the two hashed placeholders and 14 SVG cards)
 *                                       ---
 *   named by INTERFACE.md               270
 *   added, sorting after /verify/{id}     9  (the listing was cut off there; see ADDED_AFTER_LISTING)
 *                                       ---
 *   published                           279
 * Operator shapes (/operator, /dashboard and the steward tools) are registered with `operator: true`
 * and are not counted. test/fixtures/interface-paths.ts (with interface-pages.ts) is the
 * hand-copied list the tests check.
 */
import type { HttpMethod, RouteKey, RouteShape } from './types.ts';
import { shapeOf } from './operation.ts';
import { OPERATIONS } from './operations.ts';

export type { Family, HttpMethod, RouteKey, RouteKind, RouteShape, Scope } from './types.ts';
export { SCOPES } from './types.ts';

/** INTERFACE.md "What the service does" item 1. */
export const PUBLISHED_COUNT = 279;

/** The only path parameter names (INTERFACE.md "Endpoints"). */
export const PATH_PARAMS = [
  'id',
  'handle',
  'entity',
  'token',
  'tag',
  'claim',
  'surface',
  'date',
  'release',
] as const;
export type PathParam = (typeof PATH_PARAMS)[number];

/** Every shape, published and operator: the route shape of every operation entry. */
export const ROUTES: readonly RouteShape[] = Object.freeze(OPERATIONS.map((entry) => shapeOf(entry)));

/** The 279 shapes published in /openapi.json (operator surfaces left out). */
export const PUBLISHED_ROUTES: readonly RouteShape[] = Object.freeze(ROUTES.filter((r) => !r.operator));

/** Operator surfaces: served to stewards, never published. */
export const OPERATOR_ONLY_ROUTES: readonly RouteShape[] = Object.freeze(ROUTES.filter((r) => r.operator));

/** The published paths that sort after `/verify/{id}`, where INTERFACE.md's listing stops. */
export const ADDED_AFTER_LISTING: readonly string[] = Object.freeze(
  PUBLISHED_ROUTES.map((r) => r.path)
    .filter((p) => p > '/verify/{id}')
    .sort(),
);

export function routeKey(method: HttpMethod, path: string): RouteKey {
  return `${method} ${path}`;
}

/** Every key of one shape, one per declared method. */
export function routeKeys(shape: RouteShape): RouteKey[] {
  return shape.methods.map((m) => routeKey(m, shape.path));
}

const BY_KEY = new Map<string, RouteShape>();
const BY_PATH = new Map<string, RouteShape>();
for (const shape of ROUTES) {
  if (BY_PATH.has(shape.path)) throw new Error(`registry: duplicate path ${shape.path}`);
  BY_PATH.set(shape.path, shape);
  for (const key of routeKeys(shape)) BY_KEY.set(key, shape);
}

/** Every `METHOD path` key of every shape (operator ones included: they are implemented too). */
export const ROUTE_KEYS: ReadonlySet<RouteKey> = new Set(BY_KEY.keys() as Iterable<RouteKey>);

/** The shape a key belongs to, or undefined when the registry has no such key. */
export function findRoute(key: string): RouteShape | undefined {
  return BY_KEY.get(key);
}

/** The shape registered under a path template. */
export function findPath(path: string): RouteShape | undefined {
  return BY_PATH.get(path);
}

/** The `{param}` names of a path template, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]!); // group 1 is not optional
}

/**
 * The find-my-way (Fastify) form of a path template: `{param}` → `:param`.
 * `/receipt/sov{release}-fixture/card.svg` becomes `/receipt/sov:release-fixture/card.svg`, which
 * find-my-way registers beside `/receipt/:id/card.svg` without conflict: the static `sov` prefix is
 * tried first and the router backtracks to `:id` when the rest does not match (tested). The handler
 * must refuse an empty `release` (the pattern also matches `/receipt/sov-fixture/card.svg`).
 */
export function toFastifyPath(path: string): string {
  return path.replace(/\{([a-z]+)\}/g, ':$1');
}

/** Fills a path template with values: `fillPath('/api/agent/{handle}', { handle: 'ada' })`. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{([a-z]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`fillPath: no value for {${name}} in ${path}`);
    return encodeURIComponent(value);
  });
}

/**
 * The methods to hand to Fastify for a shape: its declared methods without HEAD when GET is
 * declared (Fastify's exposeHeadRoutes adds HEAD to every GET route; registering it again throws).
 */
export function registrableMethods(shape: RouteShape): HttpMethod[] {
  const hasGet = shape.methods.includes('GET');
  return shape.methods.filter((m) => !(m === 'HEAD' && hasGet));
}

/**
 * True for the hashed-asset placeholders `/theme.<hash>.css` and `/font/<name>.<hash>.woff2`.
 * They are not router paths: the router skips them and the static-file server serves the built
 * files (`dist/client/theme.3fa9c1d2.css`, ...) with immutable caching. `placeholderPattern`
 * recognises a concrete file name as belonging to its shape.
 */
export function isStaticPlaceholder(pathOrShape: string | RouteShape): boolean {
  const path = typeof pathOrShape === 'string' ? pathOrShape : pathOrShape.path;
  return /<[a-z]+>/.test(path);
}

/** A RegExp matching the concrete request paths a placeholder path stands for. */
export function placeholderPattern(path: string): RegExp {
  const source = path
    .split(/(<[a-z]+>)/)
    .map((part) => {
      if (part === '<hash>') return '[A-Za-z0-9_-]{6,64}';
      if (/^<[a-z]+>$/.test(part)) return '[A-Za-z0-9_-]{1,64}';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** Each template's matcher, for telling a wrong method from a path nothing serves. */
const MATCHERS: readonly { shape: RouteShape; pattern: RegExp }[] = ROUTES.map((shape) => ({
  shape,
  pattern: isStaticPlaceholder(shape.path)
    ? placeholderPattern(shape.path)
    : new RegExp(
        `^${shape.path
          .split(/\{[a-z]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
}));

/**
 * The methods a concrete request path takes (`Allow`: HEAD wherever GET is, as the server
 * answers it), or undefined when no shape has that path. A request whose method is not among them
 * is answered 405 (api/plugins/errors.ts).
 */
export function allowedMethods(urlPath: string): string[] | undefined {
  const path = urlPath.length > 1 && urlPath.endsWith('/') ? urlPath.slice(0, -1) : urlPath;
  const methods = new Set<string>();
  for (const { shape, pattern } of MATCHERS) {
    if (!pattern.test(path)) continue;
    for (const method of shape.methods) methods.add(method);
    if (shape.methods.includes('GET')) methods.add('HEAD');
  }
  if (!methods.size) return undefined;
  return ['GET', 'HEAD', 'POST'].filter((m) => methods.has(m));
}

/** The placeholder shape a concrete request path belongs to (`/theme.3fa9c1d2.css` → the theme shape). */
export function matchStaticPlaceholder(urlPath: string): RouteShape | undefined {
  return ROUTES.find((r) => isStaticPlaceholder(r.path) && placeholderPattern(r.path).test(urlPath));
}

/** Concrete built file names of the hashed assets, e.g. `{ theme: '/theme.3fa9c1d2.css', font: '/font/inter.9b1e22aa.woff2' }`. */
export interface BuiltAssets {
  theme?: string;
  font?: string;
}

/**
 * The concrete path of a placeholder when the build's names are known, else the placeholder itself.
 * A bare file name is accepted too (`theme.3fa9c1d2.css`, `inter.9b1e22aa.woff2`).
 */
export function concreteAssetPath(path: string, assets: BuiltAssets | undefined): string {
  if (path === '/theme.<hash>.css' && assets?.theme) {
    return assets.theme.startsWith('/') ? assets.theme : `/${assets.theme}`;
  }
  if (path === '/font/<name>.<hash>.woff2' && assets?.font) {
    return assets.font.startsWith('/') ? assets.font : `/font/${assets.font}`;
  }
  return path;
}
