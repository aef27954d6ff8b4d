/**
 * The built site's files (dist/client), read once into memory with their ETag and cache policy:
 * theme.<hash>.css, font/* and _astro/* are `public, max-age=31536000, immutable`; other assets
 * `public, max-age=3600`. A prerendered page is sent with its registry entry's page class instead
 * (api/site/page-cache.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface AssetsManifest {
  theme: string;
  font: string;
  fonts: string[];
}

export interface StoredFile {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const SHORT = 'public, max-age=3600';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.webmanifest': 'application/manifest+json',
};

/** Reads dist/assets.json (written by scripts/build.ts). */
export function readAssetsManifest(distDir = join(REPO_ROOT, 'dist')): AssetsManifest {
  const file = join(distDir, 'assets.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  return JSON.parse(readFileSync(file, 'utf8')) as AssetsManifest;
}

export function loadClientFiles(clientDir: string): Map<string, StoredFile> {
  const files = new Map<string, StoredFile>();
  for (const abs of walk(clientDir)) {
    const urlPath = '/' + relative(clientDir, abs).split(sep).join('/');
    const body = readFileSync(abs);
    const hashed =
      /^\/theme\.[\w-]+\.css$/.test(urlPath) ||
      urlPath.startsWith('/font/') ||
      urlPath.startsWith('/_astro/');
    files.set(urlPath, {
      body,
      type: TYPES[extname(abs)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: hashed ? IMMUTABLE : SHORT,
    });
  }
  return files;
}

export function* walk(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) yield* walk(abs);
    else yield abs;
  }
}

/** The path part of a URL, decoded, with no query and no way out of the root. */
export function normalisePath(url: string): string {
  let path = url.split(/[?#]/, 1)[0] || '/';
  try {
    path = decodeURIComponent(path);
  } catch {
    return '/\0';
  }
  if (!path.startsWith('/') || path.includes('\0') || path.split('/').includes('..')) return '/\0';
  return path.replace(/\/{2,}/g, '/');
}
