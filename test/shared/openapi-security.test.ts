/**
 * Who /openapi.json says may call what: session scopes as security, other identities as
 * x-civitas-identity with 401, the unknown-handle 404, the personal due feeds.
 */
import { describe, expect, it } from 'vitest';
import { SCOPE_TABLE } from '../fixtures/interface-paths.ts';
import { doc, FEED_TOKEN_PATHS, NONE_DECLARED, operations, type Op } from '../helpers/openapi-doc.ts';

describe('buildOpenApi: identity and scopes', () => {
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
    ] as const) {
      expect(doc.paths[path][method].responses['404'].description, path).toContain('unknown_agent');
    }
    // An imprint makes an unknown handle arrive: nothing it names can be missing (issue 19).
    expect(doc.paths['/api/agent/imprint'].post.responses['404']).toBeUndefined();
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
});
