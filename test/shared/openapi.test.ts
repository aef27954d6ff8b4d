import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, CONTENT_TYPE_BY_KIND, operationId } from '../../shared/openapi.ts';
import { PUBLISHED_ROUTES, ROUTES, SCOPES, pathParams } from '../../shared/registry/index.ts';
import type { RouteShape } from '../../shared/registry/index.ts';
import {
  EXTERNAL_AUTHORITY,
  FEEDS,
  OPERATOR,
  PUBLIC_ACTOR,
  SCOPE_TABLE,
} from '../fixtures/interface-paths.ts';

const ORIGIN = 'https://civitas.test';
const ASSETS = { theme: '/theme.3fa9c1d2.css', font: '/font/inter.9b1e22aa.woff2' };

type Op = Record<string, any>;
type Doc = Record<string, any>;

const doc = buildOpenApi(ROUTES, { origin: ORIGIN, version: '0.1.0', assets: ASSETS }) as Doc;
const bare = buildOpenApi(PUBLISHED_ROUTES, { origin: ORIGIN, version: '0.1.0' }) as Doc;
/** The two personal feeds a calendar app reads with a feed token instead of the session cookie. */
const FEED_TOKEN_PATHS = ['/sovereign/due.ics', '/sovereign/due.xml'];
/** INTERFACE.md "JSON mutation endpoints", authority "none declared". */
const NONE_DECLARED = [
  '/api/checkout',
  '/api/covenant',
  '/api/fund-evolution',
  '/api/inscribe',
  '/api/patronage',
  '/api/oracle/buy',
  '/api/continuum/heartbeat',
  '/api/continuum/preserve',
  '/api/federation/feedback-relay',
  '/api/mind/stance',
  '/api/witness/mark',
  '/api/stripe/issuing-authorization',
  '/api/stripe/webhook',
  '/signout',
  '/theme',
];

/** Every operation with its path, method and registry shape. */
function operations(d: Doc): { path: string; method: string; op: Op }[] {
  return Object.entries(d.paths as Record<string, Record<string, Op>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}
const byPath = new Map<string, RouteShape>(PUBLISHED_ROUTES.map((r) => [r.path, r]));
const shapeOf = (docPath: string): RouteShape => {
  const templated =
    docPath === ASSETS.theme
      ? '/theme.<hash>.css'
      : docPath === ASSETS.font
        ? '/font/<name>.<hash>.woff2'
        : docPath;
  const shape = byPath.get(templated);
  if (!shape) throw new Error(`no shape for ${docPath}`);
  return shape;
};

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
      { name: 'release', in: 'path', required: true, schema: { type: 'string' } },
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

  it('declares 401, 403 and the session scope on every scoped operation; security names session scopes only', () => {
    const scoped = new Map<string, string>();
    for (const [scope, paths] of Object.entries(SCOPE_TABLE)) for (const p of paths) scoped.set(p, scope);
    for (const { path, method, op } of operations(doc)) {
      const scope = scoped.get(path);
      if (FEED_TOKEN_PATHS.includes(path)) continue; // the due feeds: a session or a feed token, checked below
      if (scope) {
        expect(op.responses['401'], `${method} ${path}`).toBeDefined();
        expect(op.responses['403'], `${method} ${path}`).toBeDefined();
        expect(op.security, `${method} ${path}`).toEqual([{ sovereignSession: [scope] }]);
      } else {
        expect(op.security, `${method} ${path}`).toBeUndefined();
      }
    }
    expect(doc.paths['/steward/data-requests'].head.security).toEqual([
      { sovereignSession: ['steward:write'] },
    ]);
    expect(Object.keys(doc.paths['/sovereign'].get.responses).sort()).toEqual([
      '200',
      '303',
      '400',
      '401',
      '403',
      '429',
    ]);
    expect(Object.keys(doc.paths['/sovereign/imprint'].post.responses).sort()).toEqual([
      '200',
      '303',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '429',
    ]);
    // The ratifier doors check governance:write themselves, beside their external authority.
    for (const path of ['/api/constitution/ratify', '/api/codex/pledges/review']) {
      const op = doc.paths[path].post;
      expect(op['x-civitas-scope'], path).toBe('governance:write');
      expect(op.responses['403'].description, path).toContain('governance:write');
      expect(op.responses['401'], path).toBeDefined();
    }
  });

  it('declares 401 and the identity on operations that need someone known without a scope, never as security (issue 19 point 3)', () => {
    const expectations: [string, string, string[]][] = [
      ['/oracle/mine', 'get', ['sovereignSession']],
      ['/api/entitlements', 'get', ['sovereignSession']],
      ['/sovereign/due.ics', 'get', ['sovereignSession', 'dueFeedToken']],
      ['/api/mind/stance', 'post', ['sovereignSession']],
      ['/api/oracle/usage', 'get', ['sovereignSession', 'agentContinuity', 'agentRelay']],
      ['/api/checkout', 'post', ['sovereignSession', 'agentContinuity', 'agentRelay']],
      ['/api/continuum/heartbeat', 'post', ['agentContinuity', 'agentRelay']],
      ['/api/agent/imprint', 'post', ['agentContinuity', 'agentRelay']],
    ];
    for (const [path, method, schemes] of expectations) {
      const op = doc.paths[path][method];
      expect(op.responses['401'], path).toBeDefined();
      expect(op.security, path).toBeUndefined();
      expect(op['x-civitas-identity'].schemes, path).toEqual(schemes);
      for (const scheme of schemes) expect(doc.components.securitySchemes[scheme], scheme).toBeDefined();
    }
    expect(doc.paths['/api/agent/imprint'].post['x-civitas-identity'].optional).toBe(true);
    // INTERFACE.md lists these doors' authority as "none declared": no security requirement.
    for (const path of NONE_DECLARED) expect(doc.paths[path].post.security, path).toBeUndefined();
    // Identity on some methods only: GET /api/oracle is free, POST may refuse a wrong proof.
    expect(doc.paths['/api/oracle'].get.responses['401']).toBeUndefined();
    expect(doc.paths['/api/oracle'].post.responses['401']).toBeDefined();
    expect(doc.paths['/experiments'].get['x-civitas-identity']).toBeUndefined();
    expect(doc.paths['/experiments'].post['x-civitas-identity'].need).toBe('session');
    // Free reads declare no account.
    for (const path of ['/api/stats', '/commons', '/api/agent/{handle}'])
      expect(doc.paths[path].get['x-civitas-identity'], path).toBeUndefined();
    const schemes = doc.components.securitySchemes;
    expect(schemes.agentContinuity).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Civitas-Continuity',
    });
    expect(schemes.agentRelay).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares the unknown-handle 404 where a handle is looked up', () => {
    for (const [path, method] of [
      ['/api/agent/{handle}', 'get'],
      ['/api/agent/certificate', 'get'],
      ['/api/continuum/status', 'get'],
      ['/api/continuum/heartbeat', 'post'],
      ['/api/oracle', 'post'],
    ]) {
      expect(doc.paths[path][method].responses['404'].description, path).toContain('unknown_agent');
    }
    expect(doc.paths['/api/agent/imprint'].post.responses['404'].description).not.toContain('unknown_agent');
    expect(doc.paths['/api/oracle'].get.responses['404']).toBeUndefined();
  });

  it('declares the personal due feeds: a session or the feed token in the URL, and 401 without either', () => {
    for (const path of FEED_TOKEN_PATHS) {
      const op = doc.paths[path].get;
      expect(op['x-civitas-identity'].schemes, path).toEqual(['sovereignSession', 'dueFeedToken']);
      expect(Object.keys(op.responses).sort(), path).toEqual(['200', '400', '401', '429']);
      expect(op.parameters, path).toEqual([
        expect.objectContaining({ name: 'token', in: 'query', required: false }),
      ]);
    }
    expect(doc.components.securitySchemes.dueFeedToken).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'token',
    });
    const withToken = operations(doc).filter(({ op }) =>
      (op.parameters ?? []).some((p: Op) => p.name === 'token' && p.in === 'query'),
    );
    expect(withToken.map(({ path }) => path).sort()).toEqual([...FEED_TOKEN_PATHS].sort());
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
