import { z } from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  joinOperations,
  methodOperations,
  operations,
  shapeOf,
  type Operation,
} from '../../shared/registry/operation.ts';
import { OPERATIONS } from '../../shared/registry/operations.ts';
import { ROUTES } from '../../shared/registry/index.ts';
import {
  CONTRACTS,
  contractFor,
  type ContractKey,
  type ContractOf,
  type InputOf,
} from '../../shared/registry/contracts.ts';
import type { ResponseOf } from '../../shared/contract.ts';

/**
 * One entry per path: its route shape and, per method, its contract and policy
 * (shared/registry/operation.ts), written once in its family's operations file and joined by the
 * registry, which refuses a key declared twice.
 */
const SHARED = new URL('../../shared/', import.meta.url);
/** Families whose shared folder imports nothing outside itself: their entries sit beside the registry. */
const OWN_FOLDER_CLOSED = new Set(['ledger', 'boundaries']);

const { api, mutation, page } = operations('record');
const other = operations('chronicle');

describe('operation entries', () => {
  it('refuses a key declared twice at load, naming the key and both families', () => {
    const first = [api('/api/twice', 'first')];
    const second = [other.api('/api/twice', 'second', { methods: ['GET', 'POST'] })];
    expect(() => joinOperations([first, second])).toThrow(
      'operations: duplicate key GET /api/twice (declared by record and by chronicle)',
    );
    expect(() => joinOperations([[mutation('/x', 'a'), mutation('/x', 'b')]])).toThrow(
      'duplicate key POST /x',
    );
    expect(joinOperations([first, [other.api('/api/once', 'once')]])).toHaveLength(2);
  });

  it('refuses a method block for a method the entry does not declare', () => {
    expect(() => page('/p', 'a page', { POST: { response: z.object({}) } })).toThrow(
      'operations: POST /p has a POST block but does not declare POST',
    );
  });

  it('reads the route shape and the per-method contracts off one entry', () => {
    const query = z.object({ q: z.string() });
    const entry = api('/api/thing', 'a thing', {
      methods: ['GET', 'HEAD', 'POST'],
      scope: 'sovereign:write',
      refuses: { POST: ['conflict'] },
      GET: { query, response: z.object({ ok: z.literal(true) }), policy: { cache: 'public' } },
      POST: { body: z.object({ n: z.number() }), policy: { origin: 'form' } },
    });
    expect(shapeOf(entry)).toEqual({
      path: '/api/thing',
      methods: ['GET', 'HEAD', 'POST'],
      kind: 'api',
      family: 'record',
      summary: 'a thing',
      scope: 'sovereign:write',
      refuses: { POST: ['conflict'] },
    });
    expect(methodOperations(entry).map(([key]) => key)).toEqual(['GET /api/thing', 'POST /api/thing']);
    expect(methodOperations(entry)[0]?.[1].query).toBe(query);
  });
  it('derives ROUTES and CONTRACTS from the entries, one shape per entry', () => {
    expect(ROUTES.map((shape) => shape.path)).toEqual(OPERATIONS.map((entry) => entry.path));
    const keys: string[] = [];
    for (const entry of OPERATIONS) {
      for (const [key, block] of methodOperations(entry)) {
        // A block declaring only its policy (shared/registry/policies.ts) is no contract.
        const contract = Object.keys(block).some((field) => field !== 'policy');
        if (contract) keys.push(key);
        expect(contractFor(key), key).toBe(contract ? block : undefined);
      }
    }
    expect(Object.keys(CONTRACTS).sort()).toEqual(keys.sort());
  });

  it("keeps each family's entries in its one operations file", async () => {
    const misplaced: string[] = [];
    for (const family of new Set(OPERATIONS.map((entry) => entry.family))) {
      const file = OWN_FOLDER_CLOSED.has(family)
        ? `registry/operations/${family}.ts`
        : `${family}/operations.ts`;
      const module = (await import(new URL(file, SHARED).href)) as Record<string, readonly Operation[]>;
      const lists = Object.entries(module).filter(([name]) => name.endsWith('_OPERATIONS'));
      expect(lists, `shared/${file}`).toHaveLength(1);
      const own = new Set(lists[0]?.[1]);
      for (const entry of OPERATIONS)
        if (entry.family === family && !own.has(entry)) misplaced.push(`${entry.path} (${family})`);
    }
    expect(misplaced).toEqual([]);
  });

  it('types each key from its entry: inputs, answers and the keys with a contract', () => {
    expectTypeOf<InputOf<'GET /api/continuum/status'>['query']>().toEqualTypeOf<{ handle: string }>();
    expectTypeOf<InputOf<'GET /api/agent/{handle}'>['params']>().toEqualTypeOf<{ handle: string }>();
    expectTypeOf<
      ResponseOf<ContractOf<'GET /api/progress'>>['schema']
    >().toEqualTypeOf<'civitas.progress.v1'>();
    expectTypeOf<'POST /api/continuum/heartbeat'>().toExtend<ContractKey>();
    expectTypeOf<'GET /continuum'>().not.toExtend<ContractKey>();
    expectTypeOf<ContractOf<'GET /continuum'>>().toEqualTypeOf<Record<never, never>>();
  });
});
