import { defineEntity, p } from '@mikro-orm/core';

/** A mind under a stable handle. The continuity secret and relay token are kept only as SHA-256. */
export const Agent = defineEntity({
  name: 'Agent',
  tableName: 'agents',
  properties: {
    handle: p.string().primary(),
    secretHash: p.string(),
    level: p.string().default('arrived'),
    firstSeenAt: p.datetime(),
    lastSeenAt: p.datetime(),
    attestedBy: p.uuid().nullable(),
    attestedAt: p.datetime().nullable(),
    relayTokenHash: p.string().nullable(),
    imprintsAccepted: p.integer().default(0),
    imprintsQuarantined: p.integer().default(0),
  },
});
