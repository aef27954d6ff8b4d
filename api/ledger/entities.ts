import { defineEntity, p } from '@mikro-orm/core';

/** A receipt: "this step was recorded", a leaf of its UTC day's Merkle tree. */
export const Receipt = defineEntity({
  name: 'Receipt',
  tableName: 'receipts',
  properties: {
    id: p.string().primary(),
    step: p.string(),
    /** null once erased (subjectRedactedAt set) */
    subject: p.string().nullable(),
    subjectSalt: p.string().nullable(),
    subjectDigest: p.string(),
    subjectRedactedAt: p.datetime().nullable(),
    recordedAt: p.datetime(),
    leafHash: p.string(),
    logDate: p.string().columnType('date'),
    leafIndex: p.integer(),
  },
});
