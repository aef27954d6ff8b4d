import { agentsPersonalData } from './agents/personal-data.ts';
import { calibrationPersonalData } from './calibration/personal-data.ts';
import { governancePersonalData } from './governance/personal-data.ts';
import { identityPersonalData } from './identity/personal-data.ts';
import { ledgerPersonalData } from './ledger/personal-data.ts';
import { organismPersonalData } from './organism/personal-data.ts';
import { ordersPersonalData } from './orders/personal-data.ts';
import { peoplePersonalData } from './people/personal-data.ts';
import { recordPersonalData } from './record/personal-data.ts';
import { stewardPersonalData } from './steward/personal-data.ts';
import { treasuryPersonalData } from './treasury/personal-data.ts';
import type { FamilyDeclaration } from './personal-data-contract.ts';

/**
 * Personal data, declared by the family that holds it (docs/identity.md, "Personal data").
 * Export bundles and erasure are built from these declarations, and a test reads the migrated
 * schema and fails when a column that can hold a person's id, tag, email, callsign or words is in
 * no declaration — so a new family or column cannot be forgotten.
 */

export type {
  DataSubject,
  Disposition,
  ErasureSubject,
  FamilyDeclaration,
  TableDeclaration,
} from './personal-data-contract.ts';

/**
 * Every family's declaration, in the order erasure runs them. Identity runs last: it retires the
 * person's row after every other family has moved its rows off it.
 */
export const PERSONAL_DATA: readonly FamilyDeclaration[] = [
  recordPersonalData,
  agentsPersonalData,
  governancePersonalData,
  calibrationPersonalData,
  ordersPersonalData,
  organismPersonalData,
  treasuryPersonalData,
  peoplePersonalData,
  stewardPersonalData,
  ledgerPersonalData,
  identityPersonalData,
];
