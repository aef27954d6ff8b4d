/**
 * The registry's contracts: the method blocks of every operation entry (shared/registry/operation.ts),
 * by registry key. The router validates inputs from here, /openapi.json publishes from here, and
 * handlers and pages take their types from here. A params schema naming other parameters than its
 * path template is a load error.
 */
import type { Contract, ContractInput } from '../contract.ts';
import { OBSERVATORY_CONTRACTS } from '../organism/contract/observatory.ts';
import { SELF_CONTRACTS } from '../organism/contract/self.ts';
import { THEMES_CONTRACTS } from '../organism/contract/themes.ts';
import { VITALS_CONTRACTS } from '../organism/contract/vitals.ts';
import { STATE_CONTRACTS } from '../organism/contract/state.ts';
import { PERSONA_CONTRACTS } from '../organism/contract/persona.ts';
import { MIND_CONTRACTS } from '../organism/contract/mind.ts';
import { CHECKS_CONTRACTS } from '../organism/contract/checks.ts';
import { EXPERIMENTS_CONTRACTS } from '../organism/contract/experiments.ts';
import { ORGANISM_PAGE_CONTRACTS } from '../organism/contract/twins.ts';
import { findRoute, pathParams } from './index.ts';
import { methodOperations } from './operation.ts';
import { OPERATIONS, type OperationContracts } from './operations.ts';
import type { RouteKey } from './types.ts';

const LEGACY = {
  ...OBSERVATORY_CONTRACTS,
  ...SELF_CONTRACTS,
  ...THEMES_CONTRACTS,
  ...VITALS_CONTRACTS,
  ...STATE_CONTRACTS,
  ...PERSONA_CONTRACTS,
  ...MIND_CONTRACTS,
  ...CHECKS_CONTRACTS,
  ...EXPERIMENTS_CONTRACTS,
  ...ORGANISM_PAGE_CONTRACTS,
} as const;

/** Every operation's contract, by key. */
const FROM_OPERATIONS = Object.fromEntries(OPERATIONS.flatMap((entry) => methodOperations(entry)));
for (const key of Object.keys(FROM_OPERATIONS))
  if (key in LEGACY) throw new Error(`contracts: duplicate key ${key}`);
export const CONTRACTS = { ...LEGACY, ...FROM_OPERATIONS } as typeof LEGACY & OperationContracts;

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
