/**
 * The router owns route policy: a route's scope, rate class, cache class, page class, origin rule and
 * raw body are its operation entry's (shared/registry/operation.ts), applied by the router and its
 * plugins (api/plugins/http-cache.ts sets the Cache-Control, api/plugins/session.ts enforces the
 * scope) and, for pages, the site mount (api/site/page-cache.ts). No handler, page or component sets
 * Cache-Control or `Vary: Cookie` by hand (only the plugins, the site mount — pages get their
 * entry's class there, stored files their immutable one — and the two lanes that answer outside
 * Fastify's routes may), no handler checks again a scope the router enforced, and no `defineRoute`
 * carries policy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTED_ROUTES } from '../../api/families.ts';
import { findRoute } from '../../shared/registry/index.ts';
import { POLICY_RULES } from '../../shared/policy.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string, source = /\.ts$/): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path, source));
    else if (source.test(entry.name)) out.push(path);
  }
  return out;
}

const read = (path: string) => ({
  path: relative(ROOT, join(ROOT, path)),
  text: readFileSync(join(ROOT, path), 'utf8'),
});

/** A Cache-Control named as a header (`'Cache-Control'`), not mentioned in prose. */
const CACHE_CONTROL = /['"`]cache-control['"`]/i;
/** A `Vary` header set to something with Cookie in it. */
const VARY_COOKIE = /['"`]vary['"`]\s*,\s*['"`][^'"`]*cookie/i;

/** Where a Cache-Control or a `Vary: Cookie` may be written, and why. */
const ALLOWED = [
  /^api\/plugins\//, // the cache classes, the security headers, the errors, the session doors' own answers
  /^api\/site\//, // the site mount: pages set their own header, stored files their immutable one
  /^api\/health\/liveness\.ts$/, // answered before Fastify routes anything
  /^api\/metrics-listener\.ts$/, // its own listener, outside the app
];

describe('route policy', () => {
  const files = sourceFiles('api').map(read);
  // Pages, components, layouts and the pages' helpers: the site mount sets a page's class.
  const site = sourceFiles('site', /\.(astro|ts|mts|mjs|js)$/).map(read);

  it('no handler sets a Cache-Control header: the route declares its cache class', () => {
    const offenders = files
      .filter((file) => !ALLOWED.some((rule) => rule.test(file.path)))
      .filter((file) => CACHE_CONTROL.test(file.text))
      .map((file) => file.path);
    expect(offenders).toEqual([]);
  });

  it("no page or component sets a Cache-Control header: the page's registry entry declares its class", () => {
    expect(site.length).toBeGreaterThan(100);
    const offenders = site.filter((file) => CACHE_CONTROL.test(file.text)).map((file) => file.path);
    expect(offenders).toEqual([]);
  });

  it('no handler sets Vary: Cookie by hand: the cache class decides it', () => {
    const offenders = files
      .filter((file) => !ALLOWED.some((rule) => rule.test(file.path)))
      .filter((file) => VARY_COOKIE.test(file.text))
      .map((file) => file.path);
    expect(offenders).toEqual([]);
    expect(site.filter((file) => VARY_COOKIE.test(file.text)).map((file) => file.path)).toEqual([]);
  });

  it('no defineRoute carries policy: an implementation is its handler, page and preHandler', () => {
    const IMPLEMENTATION = new Set(['key', 'handler', 'page', 'preHandler']);
    const carrying = IMPLEMENTED_ROUTES.flatMap((impl) =>
      Object.keys(impl)
        .filter((field) => !IMPLEMENTATION.has(field))
        .map((field) => `${impl.key}: ${field}`),
    );
    expect(carrying).toEqual([]);
  });

  it('no handler checks again a scope the router enforced', () => {
    // Only the session plugin refuses for a missing scope; a handler reads who acts with sessionOf.
    const refusing = files
      .filter((file) => !/^api\/plugins\//.test(file.path))
      .filter(
        (file) =>
          /Refusal\(\s*'scope_required'/.test(file.text) || /!\s*[\w.?]*scopes\.includes\(/.test(file.text),
      )
      .map((file) => file.path);
    expect(refusing).toEqual([]);
    // The shared policy (shared/policy.ts) is asked only where it holds more than a scope: the
    // uniqueness receipt of ratification, and /api/policy/evaluate, which reports and never guards.
    const asking = files
      .filter((file) => /sovereignRefusal\(/.test(file.text))
      .map((file) => file.path)
      .sort();
    expect(asking).toEqual(['api/governance/amendments.ts', 'api/organism/checks/policy.ts']);
  });

  it("the shared policy's scope-only actions are exactly their door's registry scope", () => {
    for (const [action, rule] of Object.entries(POLICY_RULES)) {
      const shape = findRoute(`POST ${rule.path}`);
      expect(shape, action).toBeDefined();
      // Ratification needs the receipt besides the scope: its door checks both (requireRatifier).
      if (rule.uniquenessReceipt) expect(shape?.authorityScope, action).toBe(rule.scope);
      else expect(shape?.scope, action).toBe(rule.scope);
    }
  });
});
