import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Rows are typed from the entities, never by hand (docs/ARCHITECTURE.md, "The data layer"): a query
 * is a typed Kysely query (`sql.kysely`, api/db/kysely.ts), or raw SQL whose row is `RowOf<…>`,
 * `Pick<RowOf<…>, …>` (api/db/rows.ts) or a named type built from them. A hand-written row type,
 * `query<{ … }>`, is what is left to convert.
 *
 * A ratchet, per family folder of api/: a count may go down, never up, and a family whose count
 * reaches 0 leaves the list (then it must stay at 0).
 */
const HAND_TYPED = new Map<string, number>([
  ['agents', 8],
  ['boundaries', 1],
  ['calibration', 15],
  ['chronicle', 1],
  ['governance', 14],
  ['health', 1],
  ['http.ts', 1],
  ['ledger', 25],
  ['orders', 8],
  ['organism', 8],
  ['personal-data-contract.ts', 1],
  ['plugins', 1],
  ['record', 1],
  ['steward', 9],
  ['treasury', 27],
]);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PATTERN = /query<\{/g;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.ts$/.test(entry.name)) yield path;
  }
}

function handTyped(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of sources(join(ROOT, 'api'))) {
    const found = readFileSync(path, 'utf8').match(PATTERN)?.length ?? 0;
    if (!found) continue;
    const family = relative(join(ROOT, 'api'), path).split('/')[0] ?? '';
    counts.set(family, (counts.get(family) ?? 0) + found);
  }
  return counts;
}

describe('hand-typed query rows in api/', () => {
  const counts = handTyped();

  it('only go down, family by family', () => {
    const grown = [...counts]
      .filter(([family, count]) => count > (HAND_TYPED.get(family) ?? 0))
      .map(
        ([family, count]) =>
          `api/${family}: ${count} hand-typed rows (allowed ${HAND_TYPED.get(family) ?? 0})`,
      );
    expect(grown).toEqual([]);
  });

  it('keep the list tight: a family that converted some lowers its number', () => {
    const stale = [...HAND_TYPED]
      .filter(([family, allowed]) => (counts.get(family) ?? 0) < allowed)
      .map(([family, allowed]) => `api/${family}: ${counts.get(family) ?? 0} now, listed ${allowed}`);
    expect(stale).toEqual([]);
  });
});
