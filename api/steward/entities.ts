/**
 * The steward family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { int8 } from '../db/rows.ts';

/** A steward triage action on an imprint or a report, with its receipt. */
export const StewardAction = defineEntity({
  name: 'StewardAction',
  tableName: 'steward_actions',
  properties: {
    id: p.text().primary(),
    action: p.text(),
    sequence: int8(),
    reportId: p.text().nullable(),
    note: p.text().nullable(),
    steward: p.text(),
    outcome: p.text(),
    receiptId: p.text(),
    at: p.datetime(),
  },
});

/** A steward's lesson, citing imprints by sequence (`sources`). */
export const Lesson = defineEntity({
  name: 'Lesson',
  tableName: 'lessons',
  properties: {
    id: p.text().primary(),
    title: p.text(),
    body: p.text(),
    /** Imprint sequences; as int8 each arrives as a string from pg, a number from PGlite. */
    sources: p.array<number | string>().columnType('bigint[]'),
    steward: p.text(),
    status: p.text().default('active'),
    createdAt: p.datetime(),
    receiptId: p.text(),
  },
});
