/**
 * The registry's contracts: the method blocks of every operation entry (shared/registry/operation.ts),
 * by registry key. The router validates inputs from here, /openapi.json publishes from here, and
 * handlers and pages take their types from here. A params schema naming other parameters than its
 * path template is a load error.
 */
import type { Contract, ContractInput } from '../contract.ts';
import { findRoute, pathParams } from './index.ts';
import { methodOperations } from './operation.ts';
import { OPERATIONS, type OperationContracts } from './operations.ts';
import type { RouteKey } from './types.ts';

/**
 * Every operation's contract (its method block, policy and all), by key. A block that declares
 * only its policy (shared/registry/policies.ts) is no contract.
 */
export const CONTRACTS = Object.fromEntries(
  OPERATIONS.flatMap((entry) => methodOperations(entry)).filter(([, block]) =>
    Object.keys(block).some((field) => field !== 'policy'),
  ),
) as OperationContracts;

export type ContractKey = keyof typeof CONTRACTS;
/** The contract of a key, or the empty contract for keys without one yet. */
export type ContractOf<K extends string> = K extends ContractKey
  ? (typeof CONTRACTS)[K]
  : Record<never, never>;
/** The parsed inputs a handler of `K` reads from `request.input`. */
export type InputOf<K extends string> = ContractInput<ContractOf<K>>;

const BY_KEY = new Map<string, Contract>(Object.entries(CONTRACTS));

for (const [key, contract] of BY_KEY) {
  const shape = findRoute(key);
  if (!shape) throw new Error(`contracts: ${key} is not in the route registry`);
  const declared = Object.keys(contract.params?.shape ?? {})
    .sort()
    .join(',');
  if (contract.params && declared !== pathParams(shape.path).sort().join(',')) {
    throw new Error(`contracts: ${key} params (${declared}) differ from its path template`);
  }
}

/** The contract of a registry key, if its family has written one. */
export function contractFor(key: RouteKey | string): Contract | undefined {
  return BY_KEY.get(key);
}
