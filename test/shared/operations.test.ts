import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { joinOperations, methodOperations, operations, shapeOf } from '../../shared/registry/operation.ts';

/**
 * One entry per path: its route shape and, per method, its contract and policy
 * (shared/registry/operation.ts), written once in its family's operations file and joined by the
 * registry, which refuses a key declared twice.
 */
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
});
