/**
 * The router owns route policy: a route's cache class is its `cache` option on defineRoute, set by
 * api/plugins/http-cache.ts (shared/http-cache.ts lists the classes). No handler sets Cache-Control
 * by hand; only the plugins, the site mount (pages and stored files bring their own) and the two
 * lanes that answer outside Fastify's routes may.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Where a Cache-Control may be written, and why. */
const ALLOWED = [
  /^api\/plugins\//, // the cache classes, the security headers, the errors, the session doors' own answers
  /^api\/site\//, // the site mount: pages set their own header, stored files their immutable one
  /^api\/health\/liveness\.ts$/, // answered before Fastify routes anything
  /^api\/metrics-listener\.ts$/, // its own listener, outside the app
];

describe('route policy', () => {
  const files = sourceFiles('api').map((path) => ({
    path: relative(ROOT, join(ROOT, path)),
    text: readFileSync(join(ROOT, path), 'utf8'),
  }));

  it('no handler sets a Cache-Control header: the route declares its cache class', () => {
    const offenders = files
      .filter((file) => !ALLOWED.some((rule) => rule.test(file.path)))
      .filter((file) => /['"]cache-control['"]/i.test(file.text))
      .map((file) => file.path);
    expect(offenders).toEqual([]);
  });
});
