/**
 * The ledger family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { int8 } from '../db/rows.ts';

/** A UTC day of the receipt log: its size, and when it was sealed. */
export const LogDay = defineEntity({
  name: 'LogDay',
  tableName: 'log_days',
  properties: {
    date: p.date().primary(),
    size: p.integer().default(0),
    sealedAt: p.datetime().nullable(),
    /** the compact range of the day's tree (api/ledger/tile-math.ts); null for a day not yet tiled */
    frontier: p.blob().nullable(),
  },
});

/** Up to 256 hashes of one tree level of a day, a tile of its interior (C2SP tlog-tiles layout). */
export const LogTile = defineEntity({
  name: 'LogTile',
  tableName: 'log_tiles',
  properties: {
    date: p.date().primary(),
    level: p.smallint().primary(),
    idx: int8().primary(),
    hashes: p.blob(),
  },
});

/** A receipt: "this step was recorded", a leaf of its UTC day's Merkle tree. */
export const Receipt = defineEntity({
  name: 'Receipt',
  tableName: 'receipts',
  properties: {
    id: p.text().primary(),
    step: p.text(),
    subject: p.text().nullable(),
    recordedAt: p.datetime(),
    leafHash: p.text(),
    logDate: p.date(),
    leafIndex: p.integer(),
    subjectSalt: p.text().nullable(),
    subjectDigest: p.text(),
    subjectRedactedAt: p.datetime().nullable(),
  },
});

/** Receipts of one step, and those with their subject redacted, kept by triggers (migration 0041). */
export const ReceiptTally = defineEntity({
  name: 'ReceiptTally',
  tableName: 'receipt_tallies',
  properties: {
    step: p.text().primary(),
    receipts: int8(),
    redacted: int8(),
  },
});

/** A day's signed Merkle root (checkpoint), chained to the previous anchor. */
export const Anchor = defineEntity({
  name: 'Anchor',
  tableName: 'anchors',
  properties: {
    date: p.date().primary(),
    treeSize: p.integer(),
    rootHash: p.text(),
    previousAnchorHash: p.text(),
    anchorHash: p.text(),
    keyId: p.text(),
    signature: p.text(),
    checkpoint: p.text(),
    sealedAt: p.datetime(),
  },
});

/** An outside witness known by name and public key. */
export const Witness = defineEntity({
  name: 'Witness',
  tableName: 'witnesses',
  properties: {
    name: p.text().primary(),
    publicKey: p.text(),
    firstMarkedAt: p.datetime(),
  },
});

/** A witness's signature over a day's anchor. */
export const WitnessMark = defineEntity({
  name: 'WitnessMark',
  tableName: 'witness_marks',
  properties: {
    witness: p.text().primary(),
    date: p.date().primary(),
    signatureLine: p.text(),
    receiptId: p.text(),
    tokenHash: p.text(),
    markedAt: p.datetime(),
  },
});

/** A refused action and its reason, recorded with a receipt; the actor is published only as a public ref. */
export const Denial = defineEntity({
  name: 'Denial',
  tableName: 'denials',
  properties: {
    receiptId: p.text().primary(),
    deniedAction: p.text(),
    reason: p.text(),
    actorKind: p.text().$type<'sovereign' | 'agent'>().nullable(),
    actorRef: p.text().nullable(),
    actorPublic: p.text().nullable(),
    recordedAt: p.datetime(),
  },
});

/** A key generated once per deployment and shared by every process (the tag secret). */
export const ServiceKey = defineEntity({
  name: 'ServiceKey',
  tableName: 'service_keys',
  properties: {
    name: p.text().primary(),
    value: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

/** An Ed25519 signing key under its kid; exactly one has no retired_at (api/keys.ts, rotation). */
export const SigningKey = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_keys',
  properties: {
    kid: p.text().primary(),
    privateJwk: p.json<Record<string, unknown>>(),
    publicJwk: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
    retiredAt: p.datetime().nullable(),
  },
});

/** The anchor chain as last verified whole, and the generation its triggers move (migration 0080). */
export const AnchorChainVerified = defineEntity({
  name: 'AnchorChainVerified',
  tableName: 'anchor_chain_verified',
  properties: {
    id: p.smallint().primary().autoincrement(false),
    generation: int8(),
    keys: p.text().nullable(),
    through: p.date().nullable(),
    head: p.text().nullable(),
    length: int8().nullable(),
  },
});
