/**
 * What `npm run build` reads, as one hash: every source file outside the folders the build never
 * reads (tests, docs, outputs, caches), the lock file, the build's environment and Node's version.
 * The build records it in dist/ when it succeeds and skips itself when nothing has changed since:
 * a clean clone (no dist/) always builds, and any edit to a page, a shared module or a dependency
 * builds again. CIVITAS_BUILD_FORCE=1 builds regardless.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Folders and files that cannot change what the build emits. */
const NOT_READ = new Set([
  'node_modules',
  'dist',
  '.git',
  '.data',
  '.astro',
  'test',
  'docs',
  '.ci',
  'vitest.config.ts',
]);
const NOT_READ_SUFFIX = ['.md', '.log'];

export const INPUTS_FILE = '.inputs-hash';

export function buildInputsHash(root: string): string {
  const hash = createHash('sha256');
  hash.update(`node ${process.version}\nCIVITAS_PUBLIC_URL=${process.env.CIVITAS_PUBLIC_URL ?? ''}\n`);
  for (const file of files(root, root)) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function files(root: string, dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (dir === root && NOT_READ.has(entry.name)) continue;
    if (entry.name === '.env' || NOT_READ_SUFFIX.some((s) => entry.name.endsWith(s))) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...files(root, path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** True when dist/ holds a complete build of exactly these inputs. */
export function builtFrom(dist: string, inputs: string): boolean {
  if (process.env.CIVITAS_BUILD_FORCE === '1') return false;
  const marker = join(dist, INPUTS_FILE);
  return (
    existsSync(join(dist, 'assets.json')) &&
    existsSync(marker) &&
    readFileSync(marker, 'utf8').trim() === inputs
  );
}
