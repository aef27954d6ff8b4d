/**
 * The router owns a route's inputs (issue 23 point 2): its contract's params, query and body are
 * parsed by the router before the handler runs, so no handler parses them again beside it. Only
 * the operations listed here read their inputs themselves (`validate: false`), each for the reason
 * given; and `parseInput` is called only by the router and for what no route's contract can name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACTS } from '../../shared/registry/contracts.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Operations whose handler reads its own inputs, and why. */
const READ_BY_HANDLER: Record<string, string> = {
  'POST /mcp': 'one JSON-RPC message, answered in JSON-RPC words when it is not one',
  'POST /auth/idp/callback': "the provider's form post: a missing or unknown state is its own refusal",
  'GET /sovereign': 'a feed flash that is not one is ignored, never refused',
  'POST /api/stripe/webhook': 'verified over the raw signed bytes before any parsing',
  'POST /api/stripe/issuing-authorization': 'verified over the raw signed bytes before any parsing',
};

/** Where `parseInput(` may be called: the router, and inputs inside a verified envelope. */
const PARSERS = [
  'api/route.ts', // parseContract: the router's own parse of every contract
  'api/people/federation.ts', // a relay's JWS claims, read once the signature is verified
];

describe('route inputs', () => {
  it('the router parses every contract but those the list names', () => {
    const own = Object.entries(CONTRACTS as Record<string, { validate?: false }>)
      .filter(([, contract]) => contract.validate === false)
      .map(([key]) => key)
      .sort();
    expect(own).toEqual(Object.keys(READ_BY_HANDLER).sort());
  });

  it('no handler calls parseInput beside its contract', () => {
    const callers = sourceFiles('api')
      .filter((path) => readFileSync(join(ROOT, path), 'utf8').includes('parseInput('))
      .map((path) => relative(ROOT, join(ROOT, path)));
    expect(callers.sort()).toEqual([...PARSERS].sort());
  });
});
