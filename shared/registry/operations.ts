/**
 * Every operation, read from the families' lists (`shared/<family>/operations.ts`; the ledger's
 * and the boundaries' sit in ./operations/, since their shared folders must import nothing of the
 * registry). The lists are joined in this order; a key declared twice stops the process at load.
 * ROUTES (./index.ts) and CONTRACTS (./contracts.ts) are read from OPERATIONS.
 */
import type { HttpMethod } from './types.ts';
import { joinOperations } from './operation.ts';
import { MCP_OPERATIONS } from '../mcp/operations.ts';
import { DISCOVERY_OPERATIONS } from '../discovery/operations.ts';
import { HEALTH_OPERATIONS } from '../health/operations.ts';
import { RECORD_OPERATIONS } from '../record/operations.ts';
import { AGENT_OPERATIONS } from '../agents/operations.ts';
import { IDENTITY_OPERATIONS } from '../identity/operations.ts';
import { LEDGER_OPERATIONS } from './operations/ledger.ts';
import { ORDER_OPERATIONS } from '../orders/operations.ts';
import { GOVERNANCE_OPERATIONS } from '../governance/operations.ts';
import { PEOPLE_OPERATIONS } from '../people/operations.ts';
import { CALIBRATION_OPERATIONS } from '../calibration/operations.ts';
import { TREASURY_OPERATIONS } from '../treasury/operations.ts';
import { ORGANISM_OPERATIONS } from '../organism/operations.ts';
import { CHRONICLE_OPERATIONS } from '../chronicle/operations.ts';
import { STEWARD_OPERATIONS } from '../steward/operations.ts';
import { BOUNDARY_OPERATIONS } from './operations/boundaries.ts';
import { SITE_OPERATIONS } from '../site/operations.ts';
import { ASSET_OPERATIONS } from '../assets/operations.ts';
import { OPERATOR_OPERATIONS } from '../operator/operations.ts';

const LISTS = [
  MCP_OPERATIONS,
  DISCOVERY_OPERATIONS,
  HEALTH_OPERATIONS,
  RECORD_OPERATIONS,
  AGENT_OPERATIONS,
  IDENTITY_OPERATIONS,
  LEDGER_OPERATIONS,
  ORDER_OPERATIONS,
  GOVERNANCE_OPERATIONS,
  PEOPLE_OPERATIONS,
  CALIBRATION_OPERATIONS,
  TREASURY_OPERATIONS,
  ORGANISM_OPERATIONS,
  CHRONICLE_OPERATIONS,
  STEWARD_OPERATIONS,
  BOUNDARY_OPERATIONS,
  SITE_OPERATIONS,
  ASSET_OPERATIONS,
  OPERATOR_OPERATIONS,
] as const;

/** Every operation entry, family by family. */
export const OPERATIONS = joinOperations(LISTS);

/** An entry of any family, with its path and method blocks typed. */
export type AnyOperation = (typeof LISTS)[number][number];

type PathOf<K extends string> = K extends `${HttpMethod} ${infer P}` ? P : never;
type MethodOf<K extends string> = K extends `${infer M extends HttpMethod} ${string}` ? M : never;
type KeysOf<O> = O extends { path: infer P extends string } ? `${keyof O & HttpMethod} ${P}` : never;

type BlockOf<O, M extends HttpMethod> = M extends keyof O ? O[M] : never;

/** Every key whose entry declares a method block (a contract). */
export type OperationKey = KeysOf<AnyOperation>;

type ContractBlock<K extends string> = Omit<
  BlockOf<Extract<AnyOperation, { path: PathOf<K> }>, MethodOf<K>>,
  'policy'
>;

/**
 * The contract of every key whose method block declares one: the block without its policy (a
 * block holding only its policy is no contract).
 */
export type OperationContracts = {
  [K in OperationKey as keyof ContractBlock<K> extends never ? never : K]: ContractBlock<K>;
};
