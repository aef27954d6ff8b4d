/**
 * Checks an answer against the response schema its operation publishes in /openapi.json (the
 * contract's JSON Schema, `additionalProperties: false`), so a family's tests can hold the answers
 * that need state test/api/openapi-client.test.ts does not make (a final verdict, a paid report,
 * a provider callback) to their contract.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { jsonSchemaOf } from '../../shared/contract.ts';
import { contractFor } from '../../shared/registry/contracts.ts';
import type { RouteKey } from '../../shared/registry/types.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

export function expectDocumented(key: RouteKey, body: unknown): void {
  let validate = compiled.get(key);
  if (!validate) {
    const response = contractFor(key)?.response;
    if (!response) throw new Error(`${key} has no response schema`);
    validate = ajv.compile(jsonSchemaOf(response, 'output'));
    compiled.set(key, validate);
  }
  expect(validate(body), `${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}
