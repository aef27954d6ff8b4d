import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteKey } from '../shared/registry/types.ts';
import type { Contract, ResponseOf } from '../shared/contract.ts';
import type { ContractOf, InputOf } from '../shared/registry/contracts.ts';
import { Refusal } from '../shared/errors.ts';
import type { OperationPolicy } from '../shared/registry/operation.ts';

/** Which rate-limit budget a route draws from: the registry shape's `rate` (shared/registry/types.ts). */
export type { RateClass } from '../shared/registry/types.ts';

/** How strictly a route holds to its own origin: its entry's `policy.origin` (shared/registry/operation.ts). */
export type SameOriginRule = NonNullable<OperationPolicy['origin']>;

/**
 * A family's implementation of one registry shape (one method of one path): its handler and what
 * serves beside it. The route's policy (cache class, origin rule, raw body, scope, rate) is its
 * operation entry's, never the implementation's (shared/registry/operation.ts).
 */
export interface RouteImpl {
  key: RouteKey;
  handler: RouteHandler;
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

declare module 'fastify' {
  interface FastifyInstance {
    /** Every family's route implementations the app registered (api/families.ts). */
    implementations: RouteImpl[];
  }
}

/**
 * What a handler of `K` may return: the JSON its contract's response describes (so a handler and
 * its published schema cannot drift apart), or the reply it has sent itself (a page, a redirect,
 * another status). Routes without a response schema return anything.
 */
export type AnswerOf<K extends string> =
  ContractOf<K> extends { response: z.ZodType } ? ResponseOf<ContractOf<K>> | FastifyReply : unknown;

/** A request of a registry key's route: `request.input` holds what the router parsed with its contract. */
export type RouteRequest<K extends string = RouteKey> = FastifyRequest & { input: InputOf<K> };

/**
 * Binds an implementation to a registry key; the router refuses keys the registry does not have.
 * When the key has a contract (shared/registry/contracts.ts), the handler's `request.input` is
 * typed from it and already validated.
 */
export function defineRoute<K extends RouteKey>(
  key: K,
  impl: Omit<RouteImpl, 'key' | 'handler'> & {
    handler: (request: RouteRequest<K>, reply: FastifyReply) => Promise<AnswerOf<K>> | AnswerOf<K>;
  },
): RouteImpl {
  return { key, ...impl } as RouteImpl;
}

/**
 * Takes the implementations a room module defines (`api/organism/mind/handlers.ts`) into its
 * family's one list, api/<family>/routes.ts, key by key:
 * `...bind(mindHandlers, ['GET /api/mind', 'POST /api/mind/stance'])`. A listed key the room does
 * not define, or one it defines but the list leaves out, stops the process at load.
 */
export function bind(defined: readonly RouteImpl[], keys: readonly RouteKey[]): RouteImpl[] {
  const byKey = new Map(defined.map((impl) => [impl.key, impl]));
  const left = defined.filter((impl) => !keys.includes(impl.key)).map((impl) => impl.key);
  if (left.length) throw new Error(`routes: ${left.join(', ')} defined but not bound`);
  return keys.map((key) => {
    const impl = byKey.get(key);
    if (!impl) throw new Error(`routes: ${key} is bound but its module defines no handler for it`);
    return impl;
  });
}

/**
 * Validates `value` with a zod schema or refuses with `invalid_request` listing every field's issue.
 * The router's (parseContract below): a handler never parses its own params, query or body, its
 * contract does. Outside a route's inputs it parses what a request carries inside a verified
 * envelope, such as a federation relay's JWS claims (api/people/federation.ts).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new Refusal('invalid_request', {
    issues: result.error.issues.flatMap((issue) =>
      // A strict body names each field it does not know, as the field's own issue.
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({
            path: [...issue.path, key].join('.'),
            message: `${key} is not a field of this request; it is refused rather than ignored.`,
          }))
        : [{ path: issue.path.join('.') || '(body)', message: issue.message }],
    ),
  });
}

/**
 * Parses a request's params, query and body with its contract, or refuses with `invalid_request`.
 * The router calls this before the handler (api/router.ts).
 */
export function parseContract(contract: Contract, request: FastifyRequest): ParsedInput {
  return {
    params: contract.params ? parseInput(contract.params, request.params) : request.params,
    query: contract.query ? parseInput(contract.query, request.query) : request.query,
    body: contract.body ? parseInput(contract.body, request.body) : request.body,
  };
}

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The inputs parsed with the route's contract (api/router.ts); null on routes without one and on a hybrid's page. */
    input: ParsedInput;
  }
}
