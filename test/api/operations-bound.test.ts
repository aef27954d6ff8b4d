import { describe, expect, it } from 'vitest';
import { ROUTES_BY_FAMILY } from '../../api/families.ts';
import { OPERATIONS } from '../../shared/registry/operations.ts';

/**
 * Path → operation → handler, one hop each: every operation of a family (its entry in
 * shared/<family>/operations.ts) is bound by key in api/<family>/routes.ts, the list
 * api/families.ts registers (test/api/registry-families.test.ts proves it is that file's). The one
 * declared exception is the router's (api/router.ts): a page or asset GET without a handler is
 * served by the site, the built page or file, and a shape with neither answers 501 not_implemented.
 */
const BOUND = new Map<string, string>(
  Object.entries(ROUTES_BY_FAMILY).flatMap(([family, routes]) =>
    routes.map((route): [string, string] => [route.key, family]),
  ),
);

const servedBySite = (kind: string, method: string) =>
  method === 'GET' && (kind === 'page' || kind === 'asset');

describe("each family's operations are bound by its routes.ts", () => {
  it('binds every operation in its own family, or leaves it to the site by the declared rule', () => {
    const unbound: string[] = [];
    for (const entry of OPERATIONS) {
      for (const method of entry.methods) {
        if (method === 'HEAD') continue; // answered by the GET's handler
        const key = `${method} ${entry.path}`;
        const family = BOUND.get(key);
        if (family === entry.family || (!family && servedBySite(entry.kind, method))) continue;
        unbound.push(
          `${key}: ${entry.family} operation, ${family ? `bound in api/${family}/` : 'not bound'}`,
        );
      }
    }
    expect(unbound).toEqual([]);
  });

  it('binds nothing that is not an operation', () => {
    const keys = new Set(OPERATIONS.flatMap((entry) => entry.methods.map((m) => `${m} ${entry.path}`)));
    expect([...BOUND.keys()].filter((key) => !keys.has(key))).toEqual([]);
  });
});
