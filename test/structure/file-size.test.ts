import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Small files: no source or test file over 300 lines, so each stays one concern a reader can hold.
 * A file that grows past it is split along its sections into files named for what they hold.
 * Lines are counted as Prettier formats them (`npm run format:check` runs in `npm test`), so a file
 * cannot stay under the cap by packing statements onto one line.
 */
const MAX_LINES = 300;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['api', 'shared', 'site', 'cards', 'scripts', 'test'];
const SOURCE = /\.(ts|tsx|mts|mjs|js|astro)$/;
const SKIPPED = new Set(['node_modules', 'public', 'dist', '.astro']);

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

describe('file size', () => {
  it(`keeps every source and test file at ${MAX_LINES} lines or fewer`, () => {
    const over: string[] = [];
    for (const folder of FOLDERS) {
      for (const path of sources(join(ROOT, folder))) {
        const lines = readFileSync(path, 'utf8').split('\n');
        const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
        const name = relative(ROOT, path);
        if (count > MAX_LINES) over.push(`${name}: ${count} lines`);
      }
    }
    expect(over).toEqual([]);
  });
});
