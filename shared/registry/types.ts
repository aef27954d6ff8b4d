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

/** DESIGN.md section 5: the domain families; each owns an api/<family>/ folder. */
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
  | 'boundaries'
  | 'assets'
  | 'site'
  | 'mcp'
  | 'operator';

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
  /** `x-civitas-external-authority`: `idp-oidc`, `idp-receipt`, or `stripe` (called by the provider). */
  externalAuthority?: 'idp-oidc' | 'idp-receipt' | 'stripe';
  /** `x-civitas-public-actor: required`. */
  publicActor?: 'required';
  /** A personal feed a sovereign may also open with a feed token in the URL (`?token=ft_…`): calendar apps send no cookie. */
  feedToken?: true;
  /** Operator surfaces: served, but never published in /openapi.json (INTERFACE.md item 8). */
  operator?: true;
}

/** A registry key, `METHOD path`, the way implementations bind to shapes. */
export type RouteKey = `${HttpMethod} ${string}`;
