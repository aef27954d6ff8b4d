/**
 * A production install (`npm ci --omit=dev`, the Containerfile's runtime stage) runs the service:
 * every package the running code imports — the API, the site server, the code they share, the
 * scripts an operator runs in the image (migrate, db:create) and the built site's server bundle —
 * is a production dependency, never only a devDependency. A package moved to devDependencies, or a
 * new import of one, fails here instead of at the first start of an image.
 */
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const BUILTIN = new Set(builtinModules);

/** Source the production process loads (tests and benches are not in the image's path). */
const RUNTIME_SOURCES = ['api', 'shared', 'cards', 'site/lib', 'scripts/migrate.ts', 'scripts/db-create.ts'];
const BUILT_SERVER = join(ROOT, 'dist', 'server');

function files(path: string, extension: RegExp): string[] {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [abs];
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .map((name) => join(abs, name))
    .filter((name) => extension.test(name) && statSync(name).isFile());
}

/** Bare specifiers a file loads at run time (type-only imports are erased and do not count). */
function runtimeSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /createRequire\([^)]*\)\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found.filter((spec) => !spec.startsWith('.') && !spec.startsWith('/'));
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for built-ins. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith('node:') || BUILTIN.has(spec) || spec.startsWith('astro:')) return undefined;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Packages `npm ci --omit=dev` installs: the lockfile's entries not marked dev-only. */
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean }>;
};
const installedInProduction = (name: string) => {
  const entry = lock.packages[`node_modules/${name}`];
  return entry !== undefined && entry.dev !== true;
};

function missingFrom(paths: string[], present: (name: string) => boolean): string[] {
  const missing = new Set<string>();
  for (const path of paths) {
    for (const spec of runtimeSpecifiers(readFileSync(path, 'utf8'))) {
      const name = packageOf(spec);
      if (name && !present(name)) missing.add(`${name} (${relative(ROOT, path)})`);
    }
  }
  return [...missing].sort();
}

describe('a production install runs the service', () => {
  it('imports only production dependencies from the API, site server, shared code and scripts', () => {
    const sources = RUNTIME_SOURCES.flatMap((path) => files(path, /\.(ts|mjs|js)$/)).filter(
      (path) => !path.endsWith('.d.ts'),
    );
    expect(sources.length).toBeGreaterThan(100);
    // Our own code names its packages directly (never through another package's dependencies).
    expect(missingFrom(sources, (name) => name in manifest.dependencies)).toEqual([]);
  });

  it.skipIf(!existsSync(BUILT_SERVER))(
    "imports only production dependencies from the built site's server",
    () => {
      const bundle = files('dist/server', /\.m?js$/);
      expect(bundle.length).toBeGreaterThan(0);
      // Astro's bundle loads Astro's own dependencies: present when a production install brings them.
      expect(missingFrom(bundle, installedInProduction)).toEqual([]);
    },
  );

  it('brings Node 24 itself as a production dependency (npm run api starts on it)', () => {
    expect(manifest.dependencies.node).toMatch(/^\^?24\./);
  });
});
