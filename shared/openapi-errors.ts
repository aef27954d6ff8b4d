/**
 * The refusals an operation declares in /openapi.json, derived from what its registry shape and
 * its contract say it does — who it needs (scope, identity), what it reads (path parameters, a
 * query, a body), its rate class, the provider it needs, the quote it may answer and the refusals
 * of stored state its handler raises (`refuses`: 409, and the 404 of an identifier in a body or
 * query) — never one list for all. Every refusal carries the one error shape of shared/errors.ts,
 * published once as `components.schemas.Error`. test/api/contract/statuses.test.ts fuzzes every
 * operation and fails on any status answered that its operation does not declare;
 * test/api/contract/refusals.test.ts traces each `refuses` to code that raises it.
 */
import { ERRORS } from './errors.ts';
import { jsonSchemaOf, type Contract } from './contract.ts';
import { pathParams } from './registry/index.ts';
import { SCOPES, type HttpMethod, type IdentityNeed, type RouteShape } from './registry/types.ts';

type Json = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** The one error shape (shared/errors.ts, DESIGN.md section 6), reason as the catalog's enum. */
export const ERROR_SCHEMA: Json = {
  type: 'object',
  description:
    'Every refusal: `ok: false`, a `reason` from the one catalog and a `hint` saying what to do; some add fields (`issues` naming each field at fault, the `scope` needed, `retry_after` seconds, the unknown-handle `found: false` and `next_actions`).',
  required: ['ok', 'reason', 'hint'],
  properties: {
    ok: { const: false },
    reason: { type: 'string', enum: Object.keys(ERRORS) },
    hint: { type: 'string' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    scope: { type: 'string', enum: [...SCOPES] },
    retry_after: { type: 'integer', minimum: 0 },
  },
  additionalProperties: true,
};

const refusal = (description: string, schema: Json = ERROR_REF): Json => ({
  description,
  content: { 'application/json': { schema } },
});

/** Refusals every operation of a kind words alike: published once in `components.responses`. */
export const ERROR_RESPONSES: Record<string, Json> = {
  BadRequest: refusal(
    'The request is malformed (`invalid_request`, with `issues` naming each field; `off_origin_target` for a return_to leaving the site). Fix it before sending again.',
  ),
  Conflict: refusal(
    'The request conflicts with the current state (`conflict`): read the state and decide again.',
  ),
  PayloadTooLarge: refusal(
    'The body is larger than 64 KiB (`payload_too_large`). Reduce it; retrying the same body will not help.',
  ),
  UriTooLong: refusal('A path segment is longer than 200 characters (`uri_too_long`).'),
  UnsupportedMediaType: refusal(
    'The body is neither application/json nor a form (`unsupported_media_type`).',
  ),
  TooManyRequests: {
    ...refusal(
      'Over the rate budget (`rate_limited`): wait `retry_after` seconds, also sent as Retry-After, and avoid concurrent retries.',
    ),
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before trying again.',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  },
  MethodNotAllowed: {
    ...refusal(
      'The path exists but does not take this method (`method_not_allowed`); `Allow` lists the methods it takes. Sent for every method a path of this document does not declare.',
    ),
    headers: {
      Allow: { description: "The path's methods, e.g. `GET, HEAD`.", schema: { type: 'string' } },
    },
  },
};
const ref = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

const UNAUTHORIZED: Record<IdentityNeed, string> = {
  session:
    'There is no session (`identity_required`): this operation is personal. Sign in at /initiate or /return, then try again.',
  holder:
    'Neither a session nor a proved agent handle (`identity_required`), or a wrong continuity proof (`continuity_proof_invalid`). Do not change the handle.',
  agent:
    'The continuity secret or relay token is missing or wrong (`continuity_proof_invalid`). Do not change the handle.',
  proof:
    'A continuity proof was presented and is wrong, or the handle is attested and sent none (`continuity_proof_invalid`). Do not change the handle.',
  key: 'The Sovereign Key opens no identity (`identity_required`). Check it, or cross at /initiate.',
};

const PROVIDER_WORDS: Record<NonNullable<RouteShape['provider']>, string> = {
  payments: 'the payment provider (Stripe) is not configured here or did not answer',
  identity: 'the OpenID Connect provider is not configured here or did not answer',
  mail: 'mail is not configured here or the mail server did not answer',
  database: 'the database did not answer',
};

/** The identity an operation needs (the shape's, on the methods it applies to). */
export function identityOf(shape: RouteShape, method: HttpMethod): IdentityNeed | undefined {
  if (!shape.identity) return undefined;
  return !shape.identityOn || shape.identityOn.includes(method) ? shape.identity : undefined;
}

/** True when the operation reads inputs a client can get wrong (so it can answer 400). */
function takesInput(shape: RouteShape, method: HttpMethod, contract: Contract | undefined): boolean {
  return (
    method === 'POST' ||
    pathParams(shape.path).length > 0 ||
    Boolean(contract?.query || shape.publicActor || shape.feedToken)
  );
}

function forbidden(shape: RouteShape, method: HttpMethod): string | undefined {
  const why: string[] = [];
  const scope = shape.scope ?? shape.authorityScope;
  if (scope)
    why.push(
      `the session lacks the \`${scope}\` scope (\`scope_required\`, naming it in \`scope\`)${shape.authorityScope ? ' or the stored human-uniqueness receipt the external authority gives' : ''}: stop and resolve identity or scope; never alter actor identifiers to get round it`,
    );
  if (method === 'POST' || shape.family === 'mcp')
    why.push('the request comes from another origin (`cross_origin_refused`): nothing changed');
  if (shape.path === '/api/federation/feedback-relay')
    why.push('the sender is not a configured federation peer with a valid signature (`peer_refused`)');
  return why.length ? `Refused: ${why.join('; or ')}.` : undefined;
}

function notFound(shape: RouteShape, method: HttpMethod): string | undefined {
  const why: string[] = [];
  if (shape.unknownHandle && (identityOf(shape, method) || !shape.identityOn))
    why.push(
      'the handle is unknown (`unknown_agent`): the body carries `found: false`, `next_actions` and `next`, with `arrive` = POST /api/agent/imprint',
    );
  if (pathParams(shape.path).length || shape.refuses?.[method]?.includes('not_found'))
    why.push('nothing is recorded under an identifier it names (`not_found`)');
  return why.length ? `${why.join('; or ')}.` : undefined;
}

/** The 4xx and 5xx answers an operation declares, each in the one error shape. */
export function errorResponses(shape: RouteShape, method: HttpMethod, contract: Contract | undefined): Json {
  const responses: Json = {};
  const identity = identityOf(shape, method);
  const post = method === 'POST';
  if (takesInput(shape, method, contract)) responses['400'] = ref('BadRequest');
  if (shape.feedToken)
    responses['401'] = refusal(
      'Neither a session nor a live feed token (`identity_required`): the token was rotated, turned off or never existed.',
    );
  else if (shape.scope || shape.authorityScope)
    responses['401'] = refusal(
      'There is no session (`identity_required`). Sign in at /initiate or /return, then try again.',
    );
  else if (identity) responses['401'] = refusal(UNAUTHORIZED[identity]);
  if (contract?.quote)
    responses['402'] = refusal(
      'Payment is required: the body is a quote (`quote`), its fields also under `quote`. A quote is not a purchase; nothing was charged, and payment must never be sent automatically.',
      { allOf: [ERROR_REF, quoteSchema(contract.quote)] },
    );
  const refused = forbidden(shape, method);
  if (refused) responses['403'] = refusal(refused);
  const missing = notFound(shape, method);
  if (missing) responses['404'] = refusal(missing);
  if (shape.family === 'mcp' && post)
    responses['406'] = refusal(
      'The Accept header must name both application/json and text/event-stream (Streamable HTTP).',
    );
  if (shape.refuses?.[method]?.includes('conflict')) responses['409'] = ref('Conflict');
  if (post) responses['413'] = ref('PayloadTooLarge');
  if (pathParams(shape.path).length) responses['414'] = ref('UriTooLong');
  if (post) responses['415'] = ref('UnsupportedMediaType');
  if (shape.rate !== 'none') responses['429'] = ref('TooManyRequests');
  if (shape.provider) responses['503'] = unavailable(shape.provider);
  return responses;
}

function quoteSchema(quote: NonNullable<Contract['quote']>): Json {
  const schema = jsonSchemaOf(quote, 'output');
  return { type: 'object', required: ['quote'], properties: { quote: schema } };
}

function unavailable(provider: NonNullable<RouteShape['provider']>): Json {
  const reason = provider === 'database' ? '`unavailable`' : '`provider_unavailable`';
  return refusal(
    `Not available now: ${PROVIDER_WORDS[provider]} (${reason}${provider === 'database' ? '; /health answers its own fields with `ok: false`' : ''}). Try again later; a well-formed request is checked before this.`,
    provider === 'database'
      ? { anyOf: [ERROR_REF, { type: 'object', required: ['ok'], properties: { ok: { const: false } } }] }
      : ERROR_REF,
  );
}
