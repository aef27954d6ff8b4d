/**
 * The parts of an operation in /openapi.json that come from its contract (shared/contract.ts):
 * query parameters, the request body and the success answer's JSON Schema. shared/openapi.ts
 * calls these for every operation the registry's contracts cover.
 */
import type { RouteKind } from './registry/types.ts';
import { jsonSchemaOf, type Contract } from './contract.ts';

type Json = Record<string, unknown>;

export function propertiesOf(schema: Json): { properties: Record<string, Json>; required: string[] } {
  return {
    properties: (schema.properties ?? {}) as Record<string, Json>,
    required: (schema.required ?? []) as string[],
  };
}

/** The contract's query fields as parameters (a field the registry already declares, like `actor`, is kept once). */
export function queryParameters(contract: Contract, declared: Json[]): Json[] {
  if (!contract.query) return [];
  const { properties, required } = propertiesOf(jsonSchemaOf(contract.query, 'input'));
  return Object.entries(properties)
    .filter(([name]) => !declared.some((p) => p.name === name && p.in === 'query'))
    .map(([name, schema]) => ({
      name,
      in: 'query',
      required: required.includes(name),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      schema,
    }));
}

/** The body as JSON, and as an HTML form post where the door takes one (the same fields). */
export function requestBody(contract: Contract): Json {
  const schema = jsonSchemaOf(contract.body!, 'input');
  const content: Json = { 'application/json': { schema } };
  if (contract.form) content['application/x-www-form-urlencoded'] = { schema };
  return { required: propertiesOf(schema).required.length > 0, content };
}

/** Where a page answers JSON too: what a client sends to get it instead of the HTML. */
const NEGOTIATED = {
  accept: 'application/json',
  description:
    "Sent instead of the HTML page when the request's Accept asks for application/json (ahead of text/html).",
};

/**
 * The success answer's JSON. API and mutation operations answer JSON itself. A hybrid, and a page
 * with a JSON twin, keep their declared `text/html` (INTERFACE.md) and a feed its
 * `application/atom+xml`; their JSON variant (the page asked with `Accept: application/json`, a
 * JSON feed) is described in `x-civitas-json`. Only pages with a twin have a contract.
 */
export function describeAnswer(ok: Json, kind: RouteKind, schema: Json): void {
  const content = ok.content as Json;
  if ('application/json' in content) {
    content['application/json'] = { schema };
  } else {
    const mediaType = kind === 'feed' ? 'application/feed+json' : 'application/json';
    ok['x-civitas-json'] = { mediaType, ...(kind === 'hybrid' || kind === 'page' ? NEGOTIATED : {}), schema };
  }
}
