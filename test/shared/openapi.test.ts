import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, CONTENT_TYPE_BY_KIND, operationId } from '../../shared/openapi.ts';
import { ROUTES, SCOPES, pathParams } from '../../shared/registry/index.ts';
import { EXTERNAL_AUTHORITY, PUBLIC_ACTOR } from '../fixtures/interface-paths.ts';
import { FEEDS, OPERATOR } from '../fixtures/interface-pages.ts';
import { ASSETS, bare, doc, operations, ORIGIN, shapeOf, type Op } from '../helpers/openapi-doc.ts';

describe('buildOpenApi', () => {
  it('produces a valid OpenAPI 3.1.0 document (with and without built asset names)', async () => {
    for (const d of [doc, bare]) {
      const result = await validate(structuredClone(d) as never);
      expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
      expect(result.warnings).toEqual([]);
    }
  });

  it('is OpenAPI 3.1.0 with contract version 1, the app version and the origin', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1');
    expect(doc.info['x-civitas-app-version']).toBe('0.1.0');
    expect(doc.servers).toEqual([{ url: ORIGIN }]);
  });

  it('lists exactly the 279 published paths, operator paths absent', () => {
    expect(Object.keys(doc.paths)).toHaveLength(279);
    expect(Object.keys(bare.paths)).toHaveLength(279);
    for (const p of [...OPERATOR, '/steward/held', '/steward/whispers']) {
      expect(doc.paths[p], p).toBeUndefined();
    }
    expect(operations(doc).some(({ op }) => op.tags.includes('operator'))).toBe(false);
  });

  it('substitutes the built asset names, or keeps the placeholders without them', () => {
    expect(doc.paths[ASSETS.theme]?.get).toBeDefined();
    expect(doc.paths[ASSETS.font]?.get).toBeDefined();
    expect(doc.paths['/theme.<hash>.css']).toBeUndefined();
    expect(bare.paths['/theme.<hash>.css']?.get).toBeDefined();
    expect(bare.paths['/font/<name>.<hash>.woff2']?.get).toBeDefined();
  });

  it('has one operation per declared method, HEAD included where declared', () => {
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Op>>)) {
      const shape = shapeOf(path);
      expect(Object.keys(item).sort(), path).toEqual(shape.methods.map((m) => m.toLowerCase()).sort());
      count += shape.methods.length;
    }
    expect(operations(doc)).toHaveLength(count);
    expect(Object.keys(doc.paths['/api/experiments/prevention']).sort()).toEqual(['get', 'head', 'post']);
    expect(Object.keys(doc.paths['/settings/data']).sort()).toEqual(['get', 'head']);
    expect(Object.keys(doc.paths['/mcp']).sort()).toEqual(['get', 'post']);
  });

  it('gives unique operationIds, summaries and family tags', () => {
    const ids = operations(doc).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationId('GET', '/api/agent/{handle}')).toBe('getApiAgentByHandle');
    expect(operationId('GET', '/')).toBe('getRoot');
    expect(operationId('GET', '/_health')).not.toBe(operationId('GET', '/health'));
    for (const { path, op } of operations(doc)) {
      expect(op.summary, path).toBe(shapeOf(path).summary);
      expect(op.tags, path).toEqual([shapeOf(path).family]);
    }
    const tagNames = doc.tags.map((t: { name: string }) => t.name);
    for (const { op } of operations(doc)) expect(tagNames).toContain(op.tags[0]);
  });

  it('declares every path parameter as a required string', () => {
    for (const { path, op } of operations(doc)) {
      const names = pathParams(shapeOf(path).path);
      const declared = (op.parameters ?? []).filter((p: Op) => p.in === 'path');
      expect(
        declared.map((p: Op) => p.name),
        path,
      ).toEqual(names);
      for (const p of declared) expect(p).toMatchObject({ required: true, schema: { type: 'string' } });
    }
    expect(doc.paths['/receipt/sov{release}-fixture/card.svg'].get.parameters).toEqual([
      {
        name: 'release',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^[0-9a-z][0-9a-z.]{0,31}$' },
      },
    ]);
  });

  it('declares 200 with the content type of the kind', () => {
    for (const { path, method, op } of operations(doc)) {
      const kind = shapeOf(path).kind;
      expect(Object.keys(op.responses['200'].content), `${method} ${path}`).toEqual([
        CONTENT_TYPE_BY_KIND[kind],
      ]);
    }
    expect(Object.keys(doc.paths['/imprint'].get.responses['200'].content)).toEqual(['text/html']);
    expect(Object.keys(doc.paths['/og.png'].get.responses['200'].content)).toEqual(['*/*']);
    for (const p of FEEDS) {
      expect(Object.keys(doc.paths[p].get.responses['200'].content), p).toEqual(['application/atom+xml']);
    }
    expect(Object.keys(doc.paths['/api/stats'].get.responses['200'].content)).toEqual(['application/json']);
    expect(Object.keys(doc.paths['/api/checkout'].post.responses['200'].content)).toEqual([
      'application/json',
    ]);
  });

  it('describes the sovereignSession cookie scheme and its six scopes', () => {
    const scheme = doc.components.securitySchemes.sovereignSession;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'civitas_session' });
    expect(Object.keys(scheme['x-civitas-scopes']).sort()).toEqual([...SCOPES].sort());
  });

  it('carries the x-civitas markers', () => {
    for (const { path, method, op } of operations(doc)) {
      const shape = shapeOf(path);
      expect(op['x-civitas-kind'], `${method} ${path}`).toBe(shape.kind);
      expect(op['x-civitas-alias'], path).toBe(shape.alias ? true : undefined);
      expect(op['x-civitas-external-authority'], path).toBe(shape.externalAuthority);
      expect(op['x-civitas-public-actor'], path).toBe(shape.publicActor);
    }
    expect(doc.paths['/about'].get['x-civitas-alias']).toBe(true);
    expect(doc.paths['/reconcile'].post['x-civitas-alias']).toBe(true);
    for (const [p, marker] of Object.entries(EXTERNAL_AUTHORITY)) {
      expect(doc.paths[p].post['x-civitas-external-authority'], p).toBe(marker);
    }
    for (const p of PUBLIC_ACTOR) {
      const op = doc.paths[p].get;
      expect(op['x-civitas-public-actor'], p).toBe('required');
      expect(op.parameters.find((x: Op) => x.in === 'query')).toMatchObject({
        name: 'actor',
        required: true,
      });
    }
  });

  it('is pure: the same input gives the same document', () => {
    expect(buildOpenApi(ROUTES, { origin: ORIGIN, version: '0.1.0', assets: ASSETS })).toEqual(doc);
  });
});
