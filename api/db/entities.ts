import { Agent } from '../agents/entities.ts';
import { Sovereign } from '../identity/entities.ts';
import { Receipt } from '../ledger/entities.ts';
import { Imprint } from '../record/entities.ts';

/** Every entity the ORM knows; each family owns its own entities.ts. */
export const ENTITIES = [Agent, Imprint, Receipt, Sovereign];
