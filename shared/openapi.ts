/**
 * Builds the route description served at /openapi.json (INTERFACE.md "Versioning" item 1) from the
 * route registry. Pure: no I/O, the caller passes the origin, the app version and the build's
 * hashed asset names.
 *
 * - OpenAPI 3.1.0, `info.version` "1" (the API contract version); the app version is
 *   `info.x-civitas-app-version`.
 * - One path per published shape (operator shapes are dropped even if passed in); one operation
 *   per declared method, HEAD included where declared.
 * - Every operation declares 200 with the content type of its kind, 303 where a browser is sent
 *   on, and each refusal it can answer in the one error shape (`components.schemas.Error`),
 *   derived from its shape and contract (shared/openapi-errors.ts). `security` names a shape's
 *   session scope only; other ways of being known are `x-civitas-identity`
 *   (shared/openapi-security.ts).
 * - Markers: `x-civitas-kind`, `x-civitas-alias`, `x-civitas-external-authority`,
 *   `x-civitas-public-actor`.
 * - Operations with a contract (shared/registry/contracts.ts) also carry their parameter schemas,
 *   their request body and the JSON Schema of their 200 answer (docs/contracts.md).
 */
import type { Family, HttpMethod, RouteKind, RouteShape } from './registry/types.ts';
import { concreteAssetPath, pathParams, routeKey } from './registry/index.ts';
import type { BuiltAssets } from './registry/index.ts';
import { contractFor } from './registry/contracts.ts';
import { jsonSchemaOf } from './contract.ts';
import { describeAnswer, propertiesOf, queryParameters, requestBody } from './openapi-contracts.ts';
import { PUBLIC_ACTOR_PATTERN } from './actor.ts';
import { ERROR_RESPONSES, ERROR_SCHEMA, errorResponses } from './openapi-errors.ts';
import { FEED_TOKEN_PARAMETER, authorityOf, securitySchemes } from './openapi-security.ts';

export { SCOPE_DESCRIPTIONS } from './openapi-security.ts';

export interface OpenApiOptions {
  /** The service origin, e.g. `https://civitas.example`; becomes `servers[0].url`. */
  origin: string;
  /** The app version (package.json), published as `info.x-civitas-app-version`. */
  version: string;
  /** Concrete hashed asset names from the build; without them the `<hash>` placeholders stay. */
  assets?: BuiltAssets;
  /** Name of the session cookie (default `civitas_session`). */
  sessionCookie?: string;
}

/** The API contract version (INTERFACE.md "Versioning" item 1). */
export const API_CONTRACT_VERSION = '1';
export const DEFAULT_SESSION_COOKIE = 'civitas_session';

/** Tag descriptions, one per family (DESIGN.md section 5). */
export const FAMILY_DESCRIPTIONS: Record<Family, string> = {
  discovery: 'How a client finds its way: the machine directory, this description, guides and maps.',
  health: 'Liveness, readiness, versions and the changelog.',
  record: 'The Record: imprints, its 500-row window, quarantine counts, feedback and search.',
  agents: 'Agents: imprints by handle, status projection, naturalization, certificates and continuity.',
  identity: 'Human identity: crossing, sign-in, sessions, owner views and personal data requests.',
  ledger: 'Receipts, the daily Merkle log, anchors, inclusion proofs and witnesses.',
  orders: 'Requested changes and their status, separate from the receipts that record them.',
  governance: 'Constitution, axioms, pledges, courts, verdicts and precedents.',
  people: 'Roster, censuses, cohorts, resonance, presence and federation (humans and agents as two kinds).',
  calibration: 'Graded predictions about the service itself, pacts, almanac and what comes due.',
  treasury: 'Paid capabilities, the Oracle, entitlements and the treasury.',
  organism: 'The service observing itself: vitals, metabolism, drift, mind, truth, trials and experiments.',
  chronicle:
    'The Record told over time: its pulse, days, months, ascensions, story, badges and preview images.',
  steward: 'Stewardship: triage of held imprints, the lessons stewards record, and steward-only views.',
  boundaries: 'The 23 privacy boundaries, re-proved live with synthetic probes.',
  assets:
    'Hashed static assets: the stylesheet, fonts, favicons, default preview images and the agent client.',
  site: 'Home, information and legal pages.',
  mcp: 'The Model Context Protocol endpoint.',
  operator: 'Operator surfaces (never published).',
};

/** The declared 200 content type of a kind (INTERFACE.md "Endpoints"). */
export const CONTENT_TYPE_BY_KIND: Record<RouteKind, string> = {
  page: 'text/html',
  hybrid: 'text/html',
  asset: '*/*',
  feed: 'application/atom+xml',
  api: 'application/json',
  mutation: 'application/json',
};

type Json = Record<string, unknown>;

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A stable operationId from method and path: `GET /api/agent/{handle}` → `getApiAgentByHandle`,
 * `GET /` → `getRoot`, `GET /_health` → `getUnderscoreHealth`, `GET /theme.<hash>.css` → `getThemeHashCss`.
 */
export function operationId(method: HttpMethod, path: string): string {
  const words: string[] = [];
  for (const segment of path.split('/').filter(Boolean)) {
    if (segment.startsWith('_')) words.push('underscore');
    for (const token of segment.match(/\{[a-z]+\}|[A-Za-z0-9]+/g) ?? []) {
      words.push(token.startsWith('{') ? `by${capitalise(token.slice(1, -1))}` : token.toLowerCase());
    }
  }
  if (words.length === 0) words.push('root');
  return method.toLowerCase() + words.map(capitalise).join('');
}

/**
 * The 2xx and 3xx an operation answers: 200, and 303 where a browser is sent on: a scoped read
 * asked for a page without a session goes to /return to sign in (api/plugins/session.ts), a form
 * post to its page.
 */
function successResponses(shape: RouteShape, method: HttpMethod, form: boolean): Json {
  const responses: Json = {
    '200': { description: 'Success.', content: { [CONTENT_TYPE_BY_KIND[shape.kind]]: {} } },
  };
  if (method !== 'POST' && shape.scope)
    responses['303'] = {
      description: 'A browser without a session is sent to /return to sign in, and brought back.',
    };
  if (method === 'POST' && (form || shape.kind === 'page'))
    responses['303'] = {
      description:
        'A browser form post is sent on to its page (`Location`), a refusal carried back to the form as a flash.',
    };
  return responses;
}

function operation(shape: RouteShape, method: HttpMethod, path: string): Json {
  const op: Json = {
    operationId: operationId(method, path),
    summary: shape.summary,
    tags: [shape.family],
  };
  const contract = contractFor(routeKey(method, shape.path));
  const params = contract?.params ? propertiesOf(jsonSchemaOf(contract.params, 'input')).properties : {};
  const parameters: Json[] = pathParams(shape.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: params[name] ?? { type: 'string' },
  }));
  if (shape.publicActor) {
    parameters.push({
      name: 'actor',
      in: 'query',
      required: true,
      description: 'The public actor: `agent:<handle>` or `sovereign:<tag>`.',
      schema: { type: 'string', pattern: PUBLIC_ACTOR_PATTERN },
    });
  }
  if (shape.feedToken) parameters.push(FEED_TOKEN_PARAMETER);
  if (contract) parameters.push(...queryParameters(contract, parameters));
  if (parameters.length) op.parameters = parameters;
  if (contract?.body) op.requestBody = requestBody(contract);

  const responses = successResponses(shape, method, contract?.form === true);
  Object.assign(responses, errorResponses(shape, method, contract));
  Object.assign(op, authorityOf(shape, method));
  if (contract?.response)
    describeAnswer(responses['200'] as Json, shape.kind, jsonSchemaOf(contract.response, 'output'));
  op.responses = responses;

  op['x-civitas-kind'] = shape.kind;
  if (shape.alias) op['x-civitas-alias'] = true;
  if (shape.externalAuthority) op['x-civitas-external-authority'] = shape.externalAuthority;
  if (shape.publicActor) op['x-civitas-public-actor'] = shape.publicActor;
  return op;
}

/** The OpenAPI 3.1.0 document of the published shapes among `routes`. */
export function buildOpenApi(routes: readonly RouteShape[], options: OpenApiOptions): Json {
  const published = routes.filter((r) => !r.operator).slice();
  const pathOf = (r: RouteShape) => concreteAssetPath(r.path, options.assets);
  published.sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));

  const paths: Json = {};
  const ids = new Set<string>();
  for (const shape of published) {
    const path = pathOf(shape);
    if (path in paths) throw new Error(`buildOpenApi: duplicate path ${path}`);
    const item: Json = {};
    for (const method of shape.methods) {
      const op = operation(shape, method, shape.path);
      const id = op.operationId as string;
      if (ids.has(id)) throw new Error(`buildOpenApi: duplicate operationId ${id}`);
      ids.add(id);
      item[method.toLowerCase()] = op;
    }
    paths[path] = item;
  }

  const families = [...new Set(published.map((r) => r.family))];
  const cookie = options.sessionCookie ?? DEFAULT_SESSION_COOKIE;
  return {
    openapi: '3.1.0',
    info: {
      title: 'civitas',
      version: API_CONTRACT_VERSION,
      description:
        `The public route description of civitas (app ${options.version}), generated from the route registry (each process builds it once, at its first request: the registry only changes with the code). ` +
        'It lists routes, methods, kinds and declared session scopes. Operations with a contract also describe their parameters, request body and the JSON of their success answer ' +
        "(a hybrid, or a page with a JSON twin, asked with Accept: application/json, or a JSON feed, describes it in the 200 response's `x-civitas-json`). " +
        'Discovery order: /agents.json, then this document, then choose an operation and the authority it needs. Free reads need no account. ' +
        'Three separate authority contracts exist: human sign-in sessions (sovereignSession), agent continuity or relay credentials, and paid capabilities.',
      'x-civitas-app-version': options.version,
    },
    servers: [{ url: options.origin }],
    tags: families.map((name) => ({ name, description: FAMILY_DESCRIPTIONS[name] })),
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      responses: ERROR_RESPONSES,
      securitySchemes: securitySchemes(cookie),
    },
  };
}
