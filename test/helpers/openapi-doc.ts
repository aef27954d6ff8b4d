/** The /openapi.json document the shared/ tests read, built once, and how to walk it. */
import { buildOpenApi } from '../../shared/openapi.ts';
import { PUBLISHED_ROUTES, ROUTES } from '../../shared/registry/index.ts';
import type { RouteShape } from '../../shared/registry/index.ts';

export const ORIGIN = 'https://civitas.test';
export const ASSETS = { theme: '/theme.3fa9c1d2.css', font: '/font/inter.9b1e22aa.woff2' };

export type Op = Record<string, any>;
export type Doc = Record<string, any>;

export const doc = buildOpenApi(ROUTES, { origin: ORIGIN, version: '0.1.0', assets: ASSETS }) as Doc;
export const bare = buildOpenApi(PUBLISHED_ROUTES, { origin: ORIGIN, version: '0.1.0' }) as Doc;
/** The two personal feeds a calendar app reads with a feed token instead of the session cookie. */
export const FEED_TOKEN_PATHS = ['/sovereign/due.ics', '/sovereign/due.xml'];
/** INTERFACE.md "JSON mutation endpoints", authority "none declared". */
export const NONE_DECLARED = [
  '/api/checkout',
  '/api/covenant',
  '/api/fund-evolution',
  '/api/inscribe',
  '/api/patronage',
  '/api/oracle/buy',
  '/api/continuum/heartbeat',
  '/api/continuum/preserve',
  '/api/federation/feedback-relay',
  '/api/mind/stance',
  '/api/witness/mark',
  '/api/stripe/issuing-authorization',
  '/api/stripe/webhook',
  '/signout',
  '/theme',
];

/** Every operation with its path, method and registry shape. */
export function operations(d: Doc): { path: string; method: string; op: Op }[] {
  return Object.entries(d.paths as Record<string, Record<string, Op>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}
export const byPath = new Map<string, RouteShape>(PUBLISHED_ROUTES.map((r) => [r.path, r]));
export const shapeOf = (docPath: string): RouteShape => {
  const templated =
    docPath === ASSETS.theme
      ? '/theme.<hash>.css'
      : docPath === ASSETS.font
        ? '/font/<name>.<hash>.woff2'
        : docPath;
  const shape = byPath.get(templated);
  if (!shape) throw new Error(`no shape for ${docPath}`);
  return shape;
};
