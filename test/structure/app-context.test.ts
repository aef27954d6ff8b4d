/**
 * Services take the AppContext, not the Fastify instance (docs/ARCHITECTURE.md, "Layers"): a
 * module under api/ may import the `FastifyInstance` type only if it is wiring or host code, which
 * registers routes, hooks or plugins, sends requests to the app itself or runs with its lifecycle.
 * Everything else gets `ctx: AppContext` and, passed in explicitly, the little it needs of the app.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Registration modules and the cross-cutting plugins: wiring by what they are. */
const WIRING = [/(^|\/|-)routes\d*\.ts$/, /^api\/plugins\//];

/** Wiring and host modules, each for the reason its header gives. */
const HOSTS = new Set([
  'api/app.ts', // builds the app
  'api/router.ts', // registers every registry shape
  'api/tool.ts', // a tool's handler may get the running app, as a route handler has request.server
  'api/mcp/endpoint.ts', // hands the tools the running app
  'api/mcp/guard.ts', // a plugin: hooks and a route on /mcp
  'api/jobs/job.ts', // a job may re-run the live probes, which need the running app
  'api/jobs/runner.ts', // timers tied to the app's lifecycle (onClose) and logger
  'api/boundaries/live-probes.ts', // the census's probes are app.inject calls; builds its CensusHost
  'api/site/client.ts', // the in-process API client: app.inject
  'api/site/mount.ts', // registers the site's asset and page routes
  'api/shutdown.ts', // closes the running app on a signal, cutting its connections after the grace
]);

/** An import of the FastifyInstance type: `import type { FastifyInstance } from 'fastify'`, or inline `import('fastify').FastifyInstance`. */
const IMPORTS_INSTANCE = [
  /\bimport\s+[^;]*?\bFastifyInstance\b[^;]*?\bfrom\s+['"]fastify['"]/,
  /\bimport\(\s*['"]fastify['"]\s*\)\.FastifyInstance\b/,
];

function* modules(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* modules(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const importers = () =>
  [...modules('api')].filter((path) =>
    IMPORTS_INSTANCE.some((pattern) => pattern.test(readFileSync(join(ROOT, path), 'utf8'))),
  );

describe('services take AppContext', () => {
  it('sees the imports it looks for (a broken pattern would prove nothing)', () => {
    expect(importers()).toEqual(
      expect.arrayContaining(['api/app.ts', 'api/router.ts', 'api/plugins/session.ts']),
    );
  });

  it('only wiring and host modules import the FastifyInstance type', () => {
    const offending = importers().filter(
      (path) => !HOSTS.has(path) && !WIRING.some((pattern) => pattern.test(path)),
    );
    expect(offending).toEqual([]);
  });

  it('keeps the allow-list short: every listed host still imports it', () => {
    const found = new Set(importers());
    expect([...HOSTS].filter((path) => !found.has(path))).toEqual([]);
  });
});
