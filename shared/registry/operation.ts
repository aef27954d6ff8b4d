/**
 * One operation entry: everything civitas declares about one path template, in one place — its
 * route shape (methods, kind, summary, scope, rate, identity, refuses, alias, …) and, per method,
 * the operation's contract (zod params, query, body, answer; shared/contract.ts) and its policy.
 * Each family writes its entries once, in `shared/<family>/operations.ts`, with the builders of
 * `operations('<family>')`:
 *
 *   const { api, mutation } = operations('agents');
 *   export const AGENT_OPERATIONS = [
 *     api('/api/continuum', "Agents' continuity overview", {
 *       GET: { response: continuumOverviewSchema },
 *     }),
 *     mutation('/api/continuum/heartbeat', 'Continuity ping from an agent', {
 *       identity: 'agent',
 *       POST: { body: heartbeatBody, response: heartbeatAnswer },
 *     }),
 *   ];
 *
 * The registry (shared/registry/operations.ts) concatenates the families' lists and refuses a key
 * declared twice; ROUTES (shared/registry/index.ts) and CONTRACTS (shared/registry/contracts.ts)
 * are read off the entries. Defaults: GET for page, hybrid, api, feed and asset; POST for mutation;
 * `methods` overrides. A method block (`GET: {…}`, `POST: {…}`) names a declared method.
 */
import type { Contract } from '../contract.ts';
import type { CacheClass, CachePolicy } from '../http-cache.ts';
import type { Family, HttpMethod, RouteKind, RouteShape, StateRefusal } from './types.ts';

/**
 * How the router treats one operation beyond its contract: the route's policy, declared here and
 * nowhere else (api/router.ts reads it through `policyFor`; `defineRoute` carries only the
 * implementation, and no handler sets a Cache-Control or re-checks the entry's scope:
 * test/structure/route-policy.test.ts).
 * - `cache`: who may keep the answer (a cache class of shared/http-cache.ts, or `{ anonymous }`:
 *   that class for a request nothing personal shaped, `private` otherwise), set by
 *   api/plugins/http-cache.ts. Default: DEFAULT_CACHE below;
 * - `page`: who may keep the page (site/pages) this path renders, when it differs from `cache`
 *   (the class of the entry's implementation: a JSON twin, a card). Default: `cache`. Set by the
 *   site mount (api/site/page-cache.ts) on every page it sends, prerendered or rendered, on the
 *   one-origin server and the split deploy's site server alike; no page sets its own
 *   (test/structure/route-policy.test.ts). A page's public class holds for its anonymous form only;
 *   a prerendered page is personal only when the theme cookie rewrote it;
 * - `origin`: the same-origin rule of an unsafe method (`credential`: credential-minting doors,
 *   strict with or without a cookie; `form`: session-acting doors refuse what a browser marks
 *   cross-site; api/plugins/same-origin.ts). Default: none (shared/security.ts CREDENTIAL_DOORS are
 *   `credential` whatever the entry says);
 * - `rawBody`: keep the exact request bytes (signed provider callbacks, e.g. Stripe).
 * The scope and the rate class are shape fields of the entry (`scope`, `rate`).
 */
export interface OperationPolicy {
  cache?: CachePolicy;
  page?: CachePolicy;
  origin?: 'credential' | 'form';
  rawBody?: true;
}

/**
 * The cache class of a method block that declares none, so most entries say nothing:
 * - an unsafe method (POST) answers one caller about its own write: `private`;
 * - a GET by kind: an `api` read is computed per request, `no-store`; a `page` or `hybrid`
 *   (a page with a JSON twin) may read the session, `private`; a `feed` is public for five
 *   minutes, an `asset` for an hour.
 * An entry whose answer may be kept by others says so (`public`, `public-1m`, `revalidate`, …).
 */
export const DEFAULT_CACHE: {
  readonly unsafe: CacheClass;
  readonly GET: Readonly<Record<RouteKind, CacheClass>>;
} = {
  unsafe: 'private',
  GET: {
    api: 'revalidate',
    page: 'private',
    hybrid: 'private',
    feed: 'public-5m',
    asset: 'public-1h',
    mutation: 'private',
  },
};

/** An operation's policy with its defaults filled in. */
export interface RoutePolicy extends OperationPolicy {
  cache: CachePolicy;
  page: CachePolicy;
}

/** The policy of one method of an entry: its block's `policy`, defaults filled in. */
export function policyOf(entry: Operation, method: HttpMethod): RoutePolicy {
  const declared = entry[method]?.policy ?? {};
  const fallback = method === 'POST' ? DEFAULT_CACHE.unsafe : DEFAULT_CACHE.GET[entry.kind];
  const cache = declared.cache ?? fallback;
  return { ...declared, cache, page: declared.page ?? cache };
}

/** One method of an entry: the operation's contract and its policy. */
export interface MethodOperation extends Contract {
  policy?: OperationPolicy;
}

/** The shape fields an entry may set beside its path, kind, family and summary. */
type ShapeFields = Omit<
  RouteShape,
  'path' | 'kind' | 'family' | 'summary' | 'methods' | 'refuses' | 'identityOn'
>;

/** What a builder takes after the path and summary: shape fields, and a block per method. */
export type OperationOptions = ShapeFields & {
  methods?: readonly HttpMethod[];
  identityOn?: readonly HttpMethod[];
  refuses?: { readonly [M in HttpMethod]?: readonly StateRefusal[] };
} & { readonly [M in HttpMethod]?: MethodOperation };

/**
 * An entry as the builders return it: the path (kept literal, so `ContractOf<'GET /x'>` finds it),
 * its shape fields and its method blocks.
 */
export type Operation<P extends string = string, O extends OperationOptions = OperationOptions> = O & {
  readonly path: P;
  readonly kind: RouteKind;
  readonly family: Family;
  readonly summary: string;
  readonly methods: readonly HttpMethod[];
};

type Builder = <const P extends string, const O extends OperationOptions = Record<never, never>>(
  path: P,
  summary: string,
  options?: O,
) => Operation<P, O>;

const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST'];

function builder(family: Family, kind: RouteKind, defaults: readonly HttpMethod[]): Builder {
  return (path, summary, options) => {
    const entry = { ...options, path, kind, family, summary, methods: options?.methods ?? defaults };
    for (const method of METHODS) {
      if (entry[method] && !entry.methods.includes(method))
        throw new Error(`operations: ${method} ${path} has a ${method} block but does not declare ${method}`);
    }
    return entry as Operation<typeof path, NonNullable<typeof options>>;
  };
}

/** The builders of one family's entries, one per kind. */
export function operations(name: Family): Record<RouteKind, Builder> {
  return {
    page: builder(name, 'page', ['GET']),
    hybrid: builder(name, 'hybrid', ['GET']),
    api: builder(name, 'api', ['GET']),
    feed: builder(name, 'feed', ['GET']),
    asset: builder(name, 'asset', ['GET']),
    mutation: builder(name, 'mutation', ['POST']),
  };
}

/** The route shape of an entry: every field but the method blocks, arrays copied. */
export function shapeOf(entry: Operation): RouteShape {
  const { path, methods, kind, family, summary } = entry;
  const shape: Record<string, unknown> = { path, methods: [...methods], kind, family, summary };
  for (const [key, value] of Object.entries(entry)) {
    if (value === undefined || key in shape || (METHODS as readonly string[]).includes(key)) continue;
    shape[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  if (entry.refuses) {
    shape.refuses = Object.fromEntries(Object.entries(entry.refuses).map(([m, list]) => [m, [...list]]));
  }
  return shape as unknown as RouteShape;
}

/** The method blocks of an entry, as `[METHOD path, block]` pairs. */
export function methodOperations(entry: Operation): [string, MethodOperation][] {
  return METHODS.flatMap((method) => {
    const block = entry[method];
    return block ? [[`${method} ${entry.path}`, block] as [string, MethodOperation]] : [];
  });
}

/**
 * The families' lists joined into one, in order. A key (`METHOD path`) declared twice is a load
 * error naming the key and both families, never a silent override.
 */
export function joinOperations<const L extends readonly (readonly Operation[])[]>(
  lists: L,
): readonly L[number][number][] {
  const seen = new Map<string, Family>();
  for (const entry of lists.flat()) {
    for (const method of entry.methods) {
      const key = `${method} ${entry.path}`;
      const first = seen.get(key);
      if (first)
        throw new Error(`operations: duplicate key ${key} (declared by ${first} and by ${entry.family})`);
      seen.set(key, entry.family);
    }
  }
  return Object.freeze(lists.flat());
}
