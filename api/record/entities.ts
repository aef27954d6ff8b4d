import { defineEntity, p } from '@mikro-orm/core';

/** One imprint of the Record. `body` is null once the imprint has left the 500-body window. */
export const Imprint = defineEntity({
  name: 'Imprint',
  tableName: 'imprints',
  properties: {
    sequence: p.bigint('number').primary(),
    kind: p.string(),
    body: p.text().nullable(),
    authorKind: p.string(),
    authorRef: p.string(),
    publicAuthor: p.string(),
    createdAt: p.datetime(),
    unattested: p.boolean(),
    held: p.boolean().default(false),
    heldReason: p.string().nullable(),
    replyTo: p.bigint('number').nullable(),
    receiptId: p.string(),
  },
});
