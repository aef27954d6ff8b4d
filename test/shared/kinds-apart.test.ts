/**
 * Issue 19 (figures that mislead): INTERFACE.md item 2 counts humans and agents as separate kinds,
 * and /api/soul holds that axiom "by structure". The structure is checked here over every answer
 * /openapi.json publishes: a count of who takes part (participants, population, members, people)
 * is an object of kinds, never one number, and an object that counts humans and agents carries no
 * sum of them beside.
 */
import { describe, expect, it } from 'vitest';
import { doc, operations } from '../helpers/openapi-doc.ts';

type Json = Record<string, any>;
const WHO = new Set(['participants', 'population', 'members', 'people', 'everyone', 'citizens']);
const SUMS = new Set(['total', 'participants', 'population', 'everyone', 'all', 'combined']);
/** A number, or a union with a number in it (a k-anonymous count: a number or "fewer than 5"). */
const numeric = (schema: Json | undefined): boolean =>
  schema !== undefined &&
  ((['integer', 'number'].includes(schema.type) && schema.const === undefined) ||
    [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(numeric));

/** Every place a published answer sums kinds: `where` for each, empty when none does. */
function summed(schema: unknown, where: string, found: string[]): string[] {
  if (!schema || typeof schema !== 'object') return found;
  const json = schema as Json;
  const properties = (json.properties ?? {}) as Record<string, Json>;
  for (const [name, field] of Object.entries(properties))
    if (WHO.has(name) && numeric(field)) found.push(`${where}.${name}`);
  if ('humans' in properties && 'agents' in properties)
    for (const [name, field] of Object.entries(properties))
      if (SUMS.has(name) && numeric(field)) found.push(`${where}.${name} beside humans and agents`);
  for (const [key, inner] of Object.entries(json))
    if (key === 'properties')
      for (const [name, field] of Object.entries(inner as Json)) summed(field, `${where}.${name}`, found);
    else if (typeof inner === 'object') summed(inner, where, found);
  return found;
}

describe('humans and agents are counted apart in every published answer', () => {
  it('no answer schema has one number for people of both kinds', () => {
    const found: string[] = [];
    let answers = 0;
    for (const { path, method, op } of operations(doc)) {
      const ok = op.responses?.['200'];
      const schema = ok?.content?.['application/json']?.schema ?? ok?.['x-civitas-json']?.schema;
      if (!schema) continue;
      answers++;
      summed(schema, `${method.toUpperCase()} ${path}`, found);
    }
    expect(found).toEqual([]);
    expect(answers).toBeGreaterThan(100);
  });

  it('would find a sum: a participants count, or a total beside humans and agents', () => {
    const planted = {
      type: 'object',
      properties: {
        confluence: {
          type: 'object',
          properties: { participants: { anyOf: [{ type: 'integer' }, { const: 'fewer than 5' }] } },
        },
        stats: {
          type: 'object',
          properties: {
            humans: { type: 'integer' },
            agents: { type: 'integer' },
            total: { type: 'integer' },
          },
        },
      },
    };
    expect(summed(planted, 'x', [])).toEqual([
      'x.confluence.participants',
      'x.stats.total beside humans and agents',
    ]);
  });
});
