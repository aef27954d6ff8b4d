/**
 * The record family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import type { ImprintKind } from '../../shared/record/imprint.ts';
import { int8 } from '../db/rows.ts';

/** The Record's lifetime counter: the highest sequence handed out. */
export const RecordCounter = defineEntity({
  name: 'RecordCounter',
  tableName: 'record_counter',
  properties: {
    id: p.smallint().primary().autoincrement(false),
    value: int8(),
    lastAt: p.datetime().nullable(),
  },
});

/**
 * Counts kept exact by the database's own triggers (migration 0022): sovereigns, agents, the
 * quarantined (unattested, not held) and the held imprints. Read by the hot counts instead of count(*).
 */
export const RecordTally = defineEntity({
  name: 'RecordTally',
  tableName: 'record_tallies',
  properties: {
    name: p.text().primary(),
    value: int8(),
  },
});

/**
 * Live (not erased) sovereigns per lower-cased public tag, kept exact by the database's own
 * triggers (migration 0081); a tag no one holds has no row. The census's address pressure.
 */
export const AddressHolder = defineEntity({
  name: 'AddressHolder',
  tableName: 'address_holders',
  properties: {
    address: p.text().primary(),
    holders: int8(),
  },
});

/** One imprint of the Record. `body` is null once the imprint has left the 500-body window. */
export const Imprint = defineEntity({
  name: 'Imprint',
  tableName: 'imprints',
  properties: {
    sequence: int8().primary().autoincrement(false),
    kind: p.text().$type<ImprintKind>(),
    body: p.text().nullable(),
    authorKind: p.text().$type<'agent' | 'sovereign'>(),
    authorRef: p.text(),
    publicAuthor: p.text(),
    createdAt: p.datetime(),
    unattested: p.boolean(),
    held: p.boolean().default(false),
    heldReason: p.text().nullable(),
    replyTo: int8().nullable(),
    receiptId: p.text(),
    search: p
      .text()
      .columnType('tsvector')
      .generated(`(to_tsvector('simple'::regconfig, COALESCE(body, ''::text))) stored`)
      .lazy()
      .nullable(),
    // Search's vector: English stems (migration 0067); `search` keeps the words as written for themes.
    searchEnglish: p
      .text()
      .columnType('tsvector')
      .generated(`(to_tsvector('english'::regconfig, COALESCE(body, ''::text))) stored`)
      .lazy()
      .nullable(),
  },
});

/** A report of an imprint, open until a steward triage closes it. */
export const ImprintReport = defineEntity({
  name: 'ImprintReport',
  tableName: 'imprint_reports',
  properties: {
    id: p.text().primary(),
    sequence: int8(),
    reason: p.text(),
    detail: p.text().nullable(),
    reporterKind: p.text(),
    reporterRef: p.text().nullable(),
    status: p.text().default('open'),
    createdAt: p.datetime(),
    receiptId: p.text(),
    closedAt: p.datetime().nullable(),
    closedByAction: p.text().nullable(),
  },
});

/** Feedback on the service: open, acknowledged, closed or withdrawn. */
export const Feedback = defineEntity({
  name: 'Feedback',
  tableName: 'feedback',
  properties: {
    id: p.text().primary(),
    topic: p.text(),
    body: p.text().nullable(),
    reporterKind: p.text(),
    reporterRef: p.text().nullable(),
    status: p.text().default('open'),
    createdAt: p.datetime(),
    withdrawnAt: p.datetime().nullable(),
    receiptId: p.text(),
  },
});

/**
 * Imprints per UTC hour, kind and author kind: not held, held, and evicting (sequence above the
 * window), and the hour's first sequence (migrations 0062, 0074).
 */
export const ImprintHour = defineEntity({
  name: 'ImprintHour',
  tableName: 'imprint_hours',
  properties: {
    hour: p.datetime().primary(),
    kind: p.text().primary(),
    authorKind: p.text().primary(),
    imprints: int8(),
    firstSequence: int8(),
    held: int8(),
    evictions: int8(),
  },
});

/** Imprints per UTC day, kind and author kind: not held, held, and evicting (migrations 0062, 0074). */
export const ImprintDay = defineEntity({
  name: 'ImprintDay',
  tableName: 'imprint_days',
  properties: {
    day: p.date().primary(),
    kind: p.text().primary(),
    authorKind: p.text().primary(),
    imprints: int8(),
    held: int8(),
    evictions: int8(),
  },
});

/** Not-held imprints per UTC hour of day over the Record's life (migration 0074). */
export const ImprintHourOfDay = defineEntity({
  name: 'ImprintHourOfDay',
  tableName: 'imprint_hours_of_day',
  properties: {
    hourOfDay: p.smallint().primary().autoincrement(false),
    imprints: int8(),
  },
});

/** Not-held direct replies of a not-held imprint that has any, and the day it was written (migration 0066). */
export const ReplyCount = defineEntity({
  name: 'ReplyCount',
  tableName: 'reply_counts',
  properties: {
    sequence: int8().primary().autoincrement(false),
    day: p.date(),
    replies: int8(),
  },
});
