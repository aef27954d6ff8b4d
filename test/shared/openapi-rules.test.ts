/**
 * Issue 19 point 3, what /openapi.json tells a client it must handle beyond the statuses the fuzz
 * checks: a conditional requirement written as a schema (`due_in_days` or `due_at`), the 402 of a
 * paid capability carrying its quote, and the one error schema every refusal refers to.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { doc, operations } from '../helpers/openapi-doc.ts';

const ajv = new Ajv2020({ strict: false });
const bodySchema = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;

describe('rules a client reads in /openapi.json', () => {
  it('a claim needs exactly one of due_in_days and due_at, as oneOf', () => {
    const due = [{ required: ['due_in_days'] }, { required: ['due_at'] }];
    const prophecy = bodySchema('/sovereign/prophecy');
    expect(prophecy.oneOf).toEqual(due);
    const check = (schema: object) => ajv.compile({ ...schema, additionalProperties: true });
    const claim = { metric: 'agents', comparator: 'gte', threshold: 5, probability: 0.5 };
    const pact = { title: 'I will plant a tree', stake: 10 };
    const answer = { pact: 'pact_01J0000000000000000000000A', outcome: 'kept' };
    for (const [path, base] of [
      ['/sovereign/prophecy', claim],
      ['/sovereign/pact', pact],
    ] as const) {
      const validate = check(bodySchema(path));
      expect(validate({ ...base, due_in_days: 10 }), path).toBe(true);
      expect(validate({ ...base, due_at: '2027-01-01T00:00:00Z' }), path).toBe(true);
      expect(validate(base), `${path}: neither`).toBe(false);
      expect(validate({ ...base, due_in_days: 10, due_at: '2027-01-01' }), `${path}: both`).toBe(false);
    }
    // The pact door also answers a due pact: pact and outcome, no due time.
    expect(check(bodySchema('/sovereign/pact'))(answer)).toBe(true);
  });

  it('POST /api/oracle declares 402 with the quote it answers, in the error shape', () => {
    const paid = doc.paths['/api/oracle'].post.responses['402'];
    const schema = paid.content['application/json'].schema;
    expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
    expect(schema.allOf[1].required).toEqual(['quote']);
    expect(schema.allOf[1].properties.quote.type).toBe('object');
  });

  it('every refusal refers to the one Error schema', () => {
    const refs = new Set<string>();
    const walk = (value: unknown) => {
      if (value && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) {
          if (key === '$ref') refs.add(String(inner));
          else walk(inner);
        }
    };
    for (const { op } of operations(doc))
      for (const [status, response] of Object.entries(op.responses as Record<string, unknown>))
        if (Number(status) >= 400) walk(response);
    for (const response of Object.values(doc.components.responses)) walk(response);
    expect([...refs].filter((ref) => ref.startsWith('#/components/schemas/'))).toEqual([
      '#/components/schemas/Error',
    ]);
    expect(doc.components.schemas.Error.required).toEqual(['ok', 'reason', 'hint']);
  });
});
