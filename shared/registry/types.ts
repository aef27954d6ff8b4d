/**
 * The shape of one published route. The registry (shared/registry/index.ts) is the single
 * source of every route: the API registers from it and /openapi.json is generated from it.
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST';

/** INTERFACE.md "Endpoints": the kind marker published as `x-civitas-kind`. */
export type RouteKind = 'page' | 'asset' | 'api' | 'feed' | 'mutation' | 'hybrid';

/** INTERFACE.md "Authentication" item 2: the six scopes of `sovereignSession`. */
export const SCOPES = [
  'sovereign:read',
  'sovereign:write',
  'governance:write',
  'billing:manage',
  'identity:reconcile',
  'steward:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * DESIGN.md section 5: the domain families. A shape with a Fastify implementation names the
 * api/<family>/ folder that holds it (test/api/registry-families.test.ts); pages served by Astro
 * alone name their topic, `site` the site's own pages and `assets` the static files.
 */
export type Family =
  | 'discovery'
  | 'health'
  | 'record'
  | 'agents'
  | 'identity'
  | 'ledger'
  | 'orders'
  | 'governance'
  | 'people'
  | 'calibration'
  | 'treasury'
  | 'organism'
  | 'chronicle'
  | 'steward'
  | 'boundaries'
  | 'assets'
  | 'site'
  | 'mcp'
  | 'operator';

/**
 * Who an operation needs to know, apart from a session scope (scoped operations need a session
 * by their scope already). Each one can answer 401:
 * - `session`: a signed-in human session, any scope (your own feeds, entitlements, experiment runs);
 * - `holder`: a signed-in session, or an agent handle with its continuity proof (paid capabilities, own reports);
 * - `agent`: an agent handle with its continuity secret or relay token (heartbeat, preserve);
 * - `proof`: open to anyone, but a presented agent proof that is wrong is refused (imprint);
 * - `key`: a Sovereign Key in the body signs in (/return): a key that opens no identity is refused.
 */
export type IdentityNeed = 'session' | 'holder' | 'agent' | 'proof' | 'key';

/** Which rate-limit budget a route draws from (DESIGN.md section 6); `none`: never limited. */
export type RateClass = 'read' | 'write' | 'none';

/**
 * An outside party the operation cannot answer without; when it is switched off or fails, the
 * operation answers 503 (`provider_unavailable`; a readiness probe `unavailable`):
 * `payments` (Stripe), `identity` (the OpenID Connect provider), `mail` (SMTP), `database` (the
 * readiness probes, which report the database rather than fail with it).
 */
export type Provider = 'payments' | 'identity' | 'mail' | 'database';

export interface RouteShape {
  /** OpenAPI path template, e.g. `/api/agent/{handle}` (params: id, handle, entity, token, tag, claim, surface, date, release). */
  path: string;
  /** Declared methods. HEAD is declared only where INTERFACE.md names it. */
  methods: HttpMethod[];
  kind: RouteKind;
  family: Family;
  /** One line, what the route means. */
  summary: string;
  /** Session scope needed (the operation also declares 403). */
  scope?: Scope;
  /** `x-civitas-alias: true` for alias pages. */
  alias?: true;
  /** For an alias: the canonical path whose content it serves (registry-internal, not published). */
  aliasOf?: string;
  /**
   * `x-civitas-external-authority`: `idp-oidc` or `idp-receipt`. The payment provider's callbacks
   * carry none (INTERFACE.md: "none declared (called by the payment provider)").
   */
  externalAuthority?: 'idp-oidc' | 'idp-receipt';
  /** Who must be known beyond a scope; the operation then declares 401 and `x-civitas-identity` (see IdentityNeed). */
  identity?: IdentityNeed;
  /** The methods `identity` and `unknownHandle` apply to, when not every declared method (default: all). */
  identityOn?: HttpMethod[];
  /** The operation names a handle that may be unknown: it declares the unknown_agent 404. */
  unknownHandle?: true;
  /** `x-civitas-public-actor: required`. */
  publicActor?: 'required';
  /** A personal feed a sovereign may also open with a feed token in the URL (`?token=ft_…`): calendar apps send no cookie. */
  feedToken?: true;
  /**
   * A scope the door checks itself, beside the external authority INTERFACE.md names for it (the
   * ratifier doors: governance:write and a stored human-uniqueness receipt). Published as
   * `x-civitas-scope` with its 401 and 403, never in `security` (INTERFACE.md's scope table).
   */
  authorityScope?: Scope;
  /** The rate-limit budget (default: POST → write, every other method → read). */
  rate?: RateClass;
  /** The outside party the operation needs (it may answer 503; see Provider). */
  provider?: Provider;
  /** Operator surfaces: served, but never published in /openapi.json (INTERFACE.md item 8). */
  operator?: true;
  /**
   * The refusals of stored state a method's handler raises, beyond what the rest of the shape
   * implies: `conflict` (409: the state forbids it now) and `not_found` (404: an identifier in the
   * body or query names nothing; a path parameter declares its 404 already). Declared only here,
   * so each operation lists the ones it can answer (test/api/contract/refusals.test.ts traces each
   * to a handler that raises it).
   */
  refuses?: { [M in HttpMethod]?: StateRefusal[] };
}

/** A refusal of stored state an operation may answer (see RouteShape.refuses). */
export type StateRefusal = 'conflict' | 'not_found';

/** A registry key, `METHOD path`, the way implementations bind to shapes. */
export type RouteKey = `${HttpMethod} ${string}`;
