import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { RouteKey } from '../shared/registry/types.ts';
import { Refusal } from '../shared/errors.ts';
import type { CacheClass } from '../shared/http-cache.ts';

/** Which rate-limit budget a route draws from (DESIGN.md section 6). */
export type RateClass = 'read' | 'write' | 'none';

/**
 * How strictly a route holds to its own origin:
 * - `credential`: credential-minting doors (INTERFACE.md Authentication item 5) accept only requests
 *   that show they come from this origin (`Origin`, else `Sec-Fetch-Site: same-origin`);
 * - `form`: session-acting doors refuse what a browser marks as cross-site; a client that sends
 *   neither header (an API caller with its session cookie) passes — the session cookie is
 *   SameSite=Lax, so a cross-site form cannot carry it anyway.
 */
export type SameOriginRule = 'credential' | 'form';

/** A family's implementation of one registry shape (one method of one path). */
export interface RouteImpl {
  key: RouteKey;
  handler: RouteHandler;
  schema?: FastifySchema;
  /** Credential-minting POST door: only same-origin requests (INTERFACE.md Authentication item 5); shorthand for `sameOrigin: 'credential'`. */
  credentialDoor?: boolean;
  /** Same-origin rule (api/plugins/same-origin.ts): `form` for doors acting with a session, refusing what a browser marks cross-site. */
  sameOrigin?: SameOriginRule;
  /** Defaults: mutations (POST) → write, everything else → read. */
  rate?: RateClass;
  /** Who may keep a GET answer (api/plugins/http-cache.ts); unset → the handler's own Cache-Control, if any. */
  cache?: CacheClass;
  /** Keep the exact request bytes as `request.rawBody` (signed provider callbacks, e.g. Stripe webhooks). */
  rawBody?: boolean;
  /**
   * The Astro page this URL also is (registry kind `hybrid`, or a `page` with a JSON twin): the
   * router (api/router.ts) answers `handler`'s JSON to a caller whose `Accept` prefers it and the
   * page to everyone else, with `Vary: Accept`. `true` renders this path's page; a function renders
   * it after work of its own (a cookie the page reads). Shapes of kind `hybrid` default to `true`.
   */
  page?: true | RouteHandler;
  /** Runs before either variant of a page with a JSON twin: the guard, headers and input checks both share. */
  preHandler?: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | void;
}

export type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

/** Binds an implementation to a registry key; the router refuses keys the registry does not have. */
export function defineRoute(key: RouteKey, impl: Omit<RouteImpl, 'key'>): RouteImpl {
  return { key, ...impl };
}

/** Validates `value` with a zod schema or refuses with `invalid_request` listing every field's issue. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new Refusal('invalid_request', {
    issues: result.error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message })),
  });
}
