/**
 * Contracts (the method blocks of the operation entries, shared/<family>/operations.ts), read by the
 * registry: every JSON operation has one,
 * every contract describes its answer, and
 * /openapi.json publishes parameters, bodies and answers from them. MCP tools take their input
 * from their HTTP twin's contract: the very same zod fields, not a copy.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApi } from '../../shared/openapi.ts';
import { PUBLISHED_ROUTES, ROUTES, routeKey, type RouteShape } from '../../shared/registry/index.ts';
import { CONTRACTS, contractFor } from '../../shared/registry/contracts.ts';
import type { Contract } from '../../shared/contract.ts';
import { IMPLEMENTED_ROUTES, MCP_TOOLS } from '../../api/families.ts';

type Json = Record<string, any>;
const ALL = Object.entries(CONTRACTS) as [string, Contract][];
const doc = buildOpenApi(ROUTES, { origin: 'https://civitas.test', version: '0.1.0' }) as Json;

/** Pages whose implementation answers JSON to `Accept: application/json` (a `page` with a JSON twin, api/router.ts). */
const PAGE_TWINS = new Set(IMPLEMENTED_ROUTES.filter((impl) => impl.page).map((impl) => impl.key));

/** Operations whose answer is JSON: API reads, mutations, a hybrid's or a page's JSON variant, JSON feeds. */
function jsonOperations(): { key: string; shape: RouteShape; method: string }[] {
  return PUBLISHED_ROUTES.flatMap((shape) =>
    shape.methods
      .filter((method) => method !== 'HEAD')
      .filter(
        (method) =>
          shape.kind === 'api' ||
          shape.kind === 'mutation' ||
          (shape.kind === 'feed' && shape.path.endsWith('.json')) ||
          shape.kind === 'hybrid' ||
          (shape.kind === 'page' && PAGE_TWINS.has(routeKey(method, shape.path))),
      )
      .filter((method) => shape.kind !== 'hybrid' || method === 'GET')
      .map((method) => ({ key: routeKey(method, shape.path), shape, method })),
  );
}

describe('contracts', () => {
  it('cover every JSON operation', () => {
    const operations = jsonOperations();
    expect(operations.length).toBeGreaterThan(150);
    const missing = operations.filter(({ key }) => !contractFor(key)).map(({ key }) => key);
    expect(missing, 'JSON operations without a contract').toEqual([]);
  });

  it('describe the answer of every operation they cover, and the body of every mutation', () => {
    for (const [key, contract] of ALL) {
      // A page's form door documents what it takes (every POST has a requestBody); its answer is
      // the page it sends the browser on to (303). A card's answer is an image and an XML feed's is
      // XML: only their params and query are checked.
      if (key.startsWith('POST ') && findKind(key) === 'page' && contract.validate === false) continue;
      if (findKind(key) === 'asset' || (findKind(key) === 'feed' && !key.endsWith('.json'))) continue;
      expect(contract.response, `${key} has no response schema`).toBeDefined();
      if (key.startsWith('POST ') && findKind(key) === 'mutation')
        expect(contract.body !== undefined, `${key} has no body schema`).toBe(true);
    }
  });

  it('are published: parameters, request bodies (JSON and form) and the answer schema', () => {
    for (const [key, contract] of ALL) {
      const [method, path] = key.split(' ') as [string, string];
      // Operator routes (the steward's console and queues) have contracts too, but are never published.
      if (ROUTES.find((r) => r.path === path)?.operator) {
        expect(doc.paths[path], `${key} is an operator route`).toBeUndefined();
        continue;
      }
      const op = doc.paths[path][method.toLowerCase()];
      if (!contract.response) {
        if (method === 'POST') expect(op.requestBody, `${key}: body`).toBeDefined();
        else expect(op.parameters, `${key}: query`).toBeDefined();
        continue;
      }
      const answer = op.responses['200'];
      const schema = answer.content['application/json']?.schema ?? answer['x-civitas-json']?.schema;
      expect(schema, `${key}: answer schema`).toBeTypeOf('object');
      if (contract.body) {
        expect(op.requestBody.content['application/json'].schema.type, `${key}: body`).toBe('object');
        expect('application/x-www-form-urlencoded' in op.requestBody.content, `${key}: form`).toBe(
          contract.form === true,
        );
      }
      const query = Object.keys(contract.query?.shape ?? {});
      const declared = (op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
      for (const name of query) expect(declared, `${key}: query ${name}`).toContain(name);
    }
  });

  it('publish a hybrid, a page with a JSON twin and a JSON feed under their declared content type, the JSON variant beside it', () => {
    const hybrid = doc.paths['/imprint'].get.responses['200'];
    expect(Object.keys(hybrid.content)).toEqual(['text/html']);
    expect(hybrid['x-civitas-json']).toMatchObject({
      mediaType: 'application/json',
      accept: 'application/json',
      schema: { type: 'object' },
    });
    const feed = doc.paths['/imprint/feed.json'].get.responses['200'];
    expect(feed['x-civitas-json']).toMatchObject({
      mediaType: 'application/feed+json',
      schema: { type: 'object' },
    });
    const twin = doc.paths['/standing'].get.responses['200'];
    expect(Object.keys(twin.content)).toEqual(['text/html']);
    expect(twin['x-civitas-json']).toMatchObject({
      mediaType: 'application/json',
      accept: 'application/json',
      description: expect.stringContaining('Accept'),
      schema: { type: 'object' },
    });
    expect(doc.paths['/imprint'].get.parameters.map((p: Json) => p.name)).toEqual([
      'limit',
      'before',
      'kind',
    ]);
    expect(doc.paths['/api/agent/{handle}'].get.parameters[0]).toMatchObject({
      name: 'handle',
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: expect.any(String) },
    });
  });

  it('give the imprint kinds once: the body enum is IMPRINT_KINDS', () => {
    const body = doc.paths['/api/agent/imprint'].post.requestBody.content['application/json'].schema;
    expect(body.properties.kind.enum).toEqual(['thought', 'question', 'signal']);
    expect(body.required).toEqual(['body']);
  });

  it('are the input of MCP tools: a tool field the twin has is the twin’s own zod field', () => {
    let checked = 0;
    for (const tool of MCP_TOOLS) {
      const contract = tool.twin ? contractFor(tool.twin) : undefined;
      if (!contract) continue;
      const twin: Record<string, z.ZodType> = {
        ...contract.params?.shape,
        ...contract.query?.shape,
        ...contract.body?.shape,
      };
      for (const [name, field] of Object.entries(tool.inputSchema)) {
        if (!(name in twin)) continue;
        const inner =
          (field as z.ZodType)._zod.def.type === 'nonoptional'
            ? (field as z.ZodNonOptional)._zod.def.innerType
            : field;
        expect(inner === twin[name], `${tool.name}.${name} is a copy, not ${tool.twin}'s field`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });
});

function findKind(key: string): string | undefined {
  const [method, path] = key.split(' ');
  return ROUTES.find((r) => r.path === path && r.methods.includes(method as never))?.kind;
}
