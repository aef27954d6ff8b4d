/**
 * The glossary's naming rule (docs/ARCHITECTURE.md, "Glossary"): `project*` names a pure
 * allow-list, and a function that reads the database is a view (`read*`, `*View`). An async
 * function named `project*` or `*Projection` in api/ reads something, so it fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const ASYNC_PROJECTION =
  /\basync\s+function\s+(project\w*|\w+Projection)\b|\b(?:const|let)\s+(project\w*|\w+Projection)\s*=\s*async\b/g;

describe('names', () => {
  it('no function of api/ that awaits is named project* or *Projection (it is a view)', () => {
    const found = sourceFiles('api').flatMap((path) =>
      [...readFileSync(join(ROOT, path), 'utf8').matchAll(ASYNC_PROJECTION)].map(
        (match) => `${relative(ROOT, join(ROOT, path))}: ${match[1] ?? match[2]}`,
      ),
    );
    expect(found).toEqual([]);
  });
});
