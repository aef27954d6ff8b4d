/**
 * The inputs of the declared-statuses sweep (test/api/contract/statuses.test.ts): for each
 * operation of the registry, a bounded set of requests — valid and invalid — built from its
 * registry shape and its contract, never by hand per route.
 */
import { jsonSchemaOf } from '../../../shared/contract.ts';
import { contractFor } from '../../../shared/registry/contracts.ts';
import { routeKey, type HttpMethod, type RouteShape } from '../../../shared/registry/index.ts';

type Json = Record<string, any>;

export interface Probe {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** A value a schema accepts, as far as a simple reading of JSON Schema can tell. */
export function sample(schema: Json | undefined, name = ''): unknown {
  if (!schema) return 'x';
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) return sample(options.find((o: Json) => o.type !== 'null') ?? options[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return objectSample(schema);
    default:
      return stringSample(schema, name);
  }
}

function stringSample(schema: Json, name: string): string {
  if (schema.format === 'email') return 'someone@example.org';
  if (name === 'agent' || name === 'handle') return 'zz-unknown-agent';
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

export function objectSample(schema: Json): Json {
  const out: Json = {};
  for (const name of schema.required ?? []) out[name] = sample(schema.properties?.[name], name);
  return out;
}

const UNKNOWN: Record<string, string> = {
  id: '999999',
  handle: 'zz-unknown-agent',
  entity: 'imprint:999999',
  token: 'zz-unknown-token',
  tag: 'ffff',
  claim: 'zz-unknown-claim',
  surface: 'zz-unknown',
  date: '2001-01-01',
  release: 'zz',
};

export function concreteUrl(shape: RouteShape, query = ''): string {
  const path = shape.path.replace(/\{([a-z]+)\}/g, (_, name: string) => UNKNOWN[name] ?? 'x');
  return query ? `${path}?${query}` : path;
}

function querySample(shape: RouteShape, method: HttpMethod): string {
  const contract = contractFor(routeKey(method, shape.path));
  const params = new URLSearchParams();
  if (shape.publicActor) params.set('actor', 'agent:zz-unknown-agent');
  if (contract?.query) {
    for (const [name, value] of Object.entries(objectSample(jsonSchemaOf(contract.query, 'input'))))
      params.set(name, String(value));
  }
  return params.toString();
}

function bodySample(shape: RouteShape, method: HttpMethod): Json {
  const contract = contractFor(routeKey(method, shape.path));
  return contract?.body ? objectSample(jsonSchemaOf(contract.body, 'input')) : {};
}

/** The requests made of one operation, with the given credentials (a cookie or nothing). */
export function probesOf(shape: RouteShape, method: HttpMethod, base: Record<string, string>): Probe[] {
  const json = { ...base, 'content-type': 'application/json', accept: 'application/json' };
  const accept = { ...base, accept: 'application/json' };
  if (method !== 'POST') {
    return [
      { label: 'bare', method, url: concreteUrl(shape), headers: accept },
      { label: 'sampled', method, url: concreteUrl(shape, querySample(shape, method)), headers: accept },
      {
        label: 'bad query',
        method,
        url: concreteUrl(shape, 'limit=-1&since=x&q=&handle=%20'),
        headers: accept,
      },
      {
        label: 'html',
        method,
        url: concreteUrl(shape, querySample(shape, method)),
        headers: { ...base, accept: 'text/html' },
      },
    ];
  }
  const url = concreteUrl(shape, querySample(shape, method));
  return [
    { label: 'empty', method, url, headers: json, payload: '{}' },
    { label: 'sampled', method, url, headers: json, payload: JSON.stringify(bodySample(shape, method)) },
    { label: 'malformed', method, url, headers: json, payload: '{"unclosed' },
    { label: 'not an object', method, url, headers: json, payload: '[]' },
    {
      label: 'oversize',
      method,
      url,
      headers: json,
      payload: JSON.stringify({ body: 'x'.repeat(70 * 1024) }),
    },
    { label: 'wrong type', method, url, headers: { ...base, 'content-type': 'text/csv' }, payload: 'a,b' },
  ];
}
