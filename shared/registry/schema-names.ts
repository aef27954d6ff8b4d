/**
 * The payload schema names the service emits (`civitas.<name>.v1`, INTERFACE.md "Versioning"
 * item 3), read from the answers the contracts describe: a name is a literal `schema` field of
 * some contract's response, so /api/version cannot list a name no answer carries, nor miss one
 * a contract promises.
 */
import { jsonSchemaOf } from '../contract.ts';
import { CONTRACTS } from './contracts.ts';

const NAME = /^civitas\.[a-z0-9.-]+\.v\d+$/;

function collect(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (NAME.test(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, into);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) collect(item, into);
  }
}

let names: readonly string[] | undefined;

/** Every payload schema name of every contract's answer, sorted (computed once, on first use). */
export function payloadSchemaNames(): readonly string[] {
  if (!names) {
    const found = new Set<string>();
    for (const contract of Object.values(CONTRACTS) as { response?: Parameters<typeof jsonSchemaOf>[0] }[])
      if (contract.response) collect(jsonSchemaOf(contract.response, 'output'), found);
    names = Object.freeze([...found].sort());
  }
  return names;
}
