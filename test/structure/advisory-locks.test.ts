/**
 * PostgreSQL advisory locks are one key space for the whole database: two jobs or counters sharing
 * a key would wait on (or skip for) each other. Every `…_LOCK = 7_212_NNN` in the code is unique.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { at } from '../helpers/elements.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('advisory lock keys', () => {
  it('are unique across the code', () => {
    const owners = new Map<string, string[]>();
    for (const path of tsFiles('api')) {
      for (const match of readFileSync(join(ROOT, path), 'utf8').matchAll(/(\w+_LOCK)\s*=\s*(\d[\d_]*)/g)) {
        const key = at(match, 2).replaceAll('_', '');
        owners.set(key, [...(owners.get(key) ?? []), `${path}:${match[1]}`]);
      }
    }
    expect(owners.size).toBeGreaterThan(5);
    expect([...owners.values()].filter((names) => names.length > 1)).toEqual([]);
  });
});
