import { EntitySchema } from '@mikro-orm/core';
import type { InferKyselyDB } from '@mikro-orm/sql';
import * as agents from '../agents/entities.ts';
import * as calibration from '../calibration/entities.ts';
import * as governance from '../governance/entities.ts';
import * as identity from '../identity/entities.ts';
import * as ledger from '../ledger/entities.ts';
import * as orders from '../orders/entities.ts';
import * as organism from '../organism/entities.ts';
import * as people from '../people/entities.ts';
import * as record from '../record/entities.ts';
import * as steward from '../steward/entities.ts';
import * as treasury from '../treasury/entities.ts';

const FAMILIES = [
  agents,
  calibration,
  governance,
  identity,
  ledger,
  orders,
  organism,
  people,
  record,
  steward,
  treasury,
];

/**
 * Every entity the ORM knows: one per table, each family owning its entities.ts (which exports
 * entities and their types). test/api/db/entities-drift.test.ts holds them to the migrated schema.
 */
export const ENTITIES = FAMILIES.flatMap((family) => Object.values(family)).filter(
  (value) => value instanceof EntitySchema,
);

/** One family's tables as MikroORM infers them from its entities.ts. */
type TablesOf<Module> = InferKyselyDB<Extract<Module[keyof Module], { name: string }>>;

/** Every entity of api/db/entities.ts's ENTITIES (one family at a time: a union of all is too wide to infer). */
export type Tables = TablesOf<typeof agents> &
  TablesOf<typeof calibration> &
  TablesOf<typeof governance> &
  TablesOf<typeof identity> &
  TablesOf<typeof ledger> &
  TablesOf<typeof orders> &
  TablesOf<typeof organism> &
  TablesOf<typeof people> &
  TablesOf<typeof record> &
  TablesOf<typeof steward> &
  TablesOf<typeof treasury>;
