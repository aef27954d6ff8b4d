import { defineEntity, p } from '@mikro-orm/core';

/** A human. The raw id never leaves the server; the public face is the 4-hex tag. */
export const Sovereign = defineEntity({
  name: 'Sovereign',
  tableName: 'sovereigns',
  properties: {
    id: p.uuid().primary(),
    tag: p.string().length(4),
    callsign: p.string().nullable(),
    callsignVisible: p.boolean().default(false),
    keyHash: p.string().nullable(),
    email: p.string().nullable(),
    emailVerifiedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime().nullable(),
  },
});
