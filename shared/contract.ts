/**
 * The contract of one operation: zod schemas for what it takes (path params, query, body) and
 * what its success answer carries (the JSON body). Each family writes its contracts once, in the
 * method blocks of its operation entries (`shared/<family>/operations.ts`, shared/registry/operation.ts);
 * shared/registry/contracts.ts reads them by registry key.
 * One schema then feeds four readers: the router validates inputs with it before the handler
 * (api/router.ts), /openapi.json publishes it (shared/openapi.ts), MCP tools take their input
 * from it, and pages `import type` the response types (`z.infer`), so drift is a compile error.
 */
import { z } from 'zod';

export interface Contract {
  /** Path parameters, named as in the path template (`{handle}` → `handle`). */
  params?: z.ZodObject;
  /** Query string fields (values arrive as strings: coerce numbers). */
  query?: z.ZodObject;
  /** The request body: JSON, and also an HTML form post when `form` is set. */
  body?: z.ZodObject;
  /** The body may also arrive as `application/x-www-form-urlencoded` (the door answers a form with 303). */
  form?: true;
  /**
   * `false`: the router leaves the inputs to the handler, which reads them itself: in its own
   * protocol (JSON-RPC on /mcp), over the raw signed bytes (Stripe), as a provider's form post
   * (the sign-in callback) or as two doors in one (POST /sovereign/pact); the schemas still
   * document them. Default: the router validates.
   */
  validate?: false;
  /** The JSON body of the success answer (200); for a hybrid, its JSON variant. */
  response?: z.ZodType;
  /** A paid capability: the quote its 402 answer carries under `quote` (shared/openapi-errors.ts). */
  quote?: z.ZodType;
}

/** What a handler reads from `request.input` once the router has parsed it with the contract. */
export interface ContractInput<C extends Contract = Contract> {
  params: C['params'] extends z.ZodType ? z.output<C['params']> : Record<string, string>;
  query: C['query'] extends z.ZodType ? z.output<C['query']> : Record<string, string | string[] | undefined>;
  body: C['body'] extends z.ZodType ? z.output<C['body']> : unknown;
}

/** The JSON body of an operation's success answer, for pages and clients (`ResponseOf<typeof X['GET /path']>`). */
export type ResponseOf<C extends Contract> = C['response'] extends z.ZodType
  ? z.output<C['response']>
  : unknown;

/** Form fields arrive as '' when left blank: treat blank as absent before validating. */
export const blank = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** An optional field a form may leave blank: '' counts as absent. */
export function optional<S extends z.ZodType>(schema: S) {
  return z.preprocess(blank, schema.optional());
}

/** A page the form post returns to (local paths only; the door checks it). */
export const returnTo = optional(z.string().max(2048));

/** An ISO 8601 timestamp as the service writes it (`Date.toISOString()`). */
export const isoTime = z.string().describe('ISO 8601 UTC timestamp');

/**
 * The JSON Schema (2020-12, which OpenAPI 3.1 accepts) of a contract schema. Inputs are described
 * as a client may send them (`io: 'input'`: defaults make a field optional), answers as the
 * service writes them. A part JSON Schema cannot say (a transform) becomes `{}`, never an error.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: dropSafeIntegerBounds,
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * zod writes `.int()` as an integer between ±2^53−1 (a JavaScript number's exact range). JSON
 * Schema's `integer` already says whole number, and every count the service writes is far inside
 * that range, so the bounds only add bytes (about a tenth of /openapi.json): they are left out.
 */
function dropSafeIntegerBounds(context: { jsonSchema: Record<string, unknown> }): void {
  const json = context.jsonSchema;
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
}
