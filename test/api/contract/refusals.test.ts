/**
 * Issue 19 point 3: 409 and the 404 of an identifier in a body or query are declared per
 * operation, from its registry shape's `refuses`, not on every POST. Each declared refusal must be
 * one the operation's code can raise: a module its implementation reaches (its defining module and
 * the runtime imports from there on) throws a Refusal with that reason. The fuzz of
 * statuses.test.ts checks the other direction (every status answered is declared).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_MODULES, REPO_ROOT } from '../../../api/boundaries/inventory.ts';
import { definersOf } from '../../../api/boundaries/module-graph.ts';
import { buildModuleGraph, parseModule } from '../../../scripts/module-graph.ts';
import { IMPLEMENTED_ROUTES } from '../../../api/families.ts';
import { createTestApp } from '../../helpers/app.ts';
import { PUBLISHED_ROUTES, routeKey } from '../../../shared/registry/index.ts';

type Json = Record<string, any>;
let doc: Json;
beforeAll(async () => {
  const t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  await t.close();
});

const sources = new Map<string, string>();
const source = (path: string) => {
  if (!sources.has(path)) sources.set(path, readFileSync(join(REPO_ROOT, path), 'utf8'));
  return sources.get(path)!;
};

/** Every module a route's code can run: its defining module and its runtime imports, transitively. */
function reached(module: string): string[] {
  const seen = new Set<string>();
  const stack = [module];
  while (stack.length) {
    const path = stack.pop()!;
    if (seen.has(path) || !existsSync(join(REPO_ROOT, path))) continue;
    seen.add(path);
    if (REGISTRATION_MODULES.has(path)) continue;
    stack.push(...parseModule(path, source(path)).imports.map((edge) => edge.target));
  }
  return [...seen];
}

const raises = (module: string, reason: string) =>
  new RegExp(`Refusal\\(\\s*'${reason}'`).test(source(module));

const definers = definersOf(buildModuleGraph(REPO_ROOT)).routes;

describe('declared state refusals', () => {
  it('are declared only where the shape says, and each traces to code that raises it', () => {
    const untraced: string[] = [];
    let declared = 0;
    for (const shape of PUBLISHED_ROUTES)
      for (const method of shape.methods) {
        const responses = doc.paths[shape.path]?.[method.toLowerCase()]?.responses ?? {};
        const refuses = shape.refuses?.[method] ?? [];
        expect('409' in responses, `${method} ${shape.path} 409`).toBe(refuses.includes('conflict'));
        if (refuses.length === 0) continue;
        const impl = IMPLEMENTED_ROUTES.find((route) => route.key === routeKey(method, shape.path));
        const modules = reached(definers.get(impl!.key)!);
        for (const reason of refuses) {
          declared++;
          if (!modules.some((module) => raises(module, reason)))
            untraced.push(`${method} ${shape.path}: ${reason}`);
        }
      }
    expect(untraced).toEqual([]);
    expect(declared).toBeGreaterThan(20);
  });

  it('leaves 409 and the body 404 off the POSTs that cannot answer them', () => {
    const post = (path: string) => doc.paths[path].post.responses;
    for (const path of ['/api/quick-imprint', '/feedback/report', '/initiate', '/api/checkout', '/mcp'])
      expect(Object.keys(post(path)), path).not.toContain('409');
    for (const path of ['/api/quick-imprint', '/initiate', '/sovereign/order', '/experiments'])
      expect(Object.keys(post(path)), path).not.toContain('404');
    expect(post('/sovereign/second')).toHaveProperty('409');
    expect(post('/sovereign/second')).toHaveProperty('404');
  });
});
