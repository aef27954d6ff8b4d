/**
 * The people family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { int8 } from '../db/rows.ts';

/** A day's census: humans, agents, imprints and receipts. */
export const CensusSnapshot = defineEntity({
  name: 'CensusSnapshot',
  tableName: 'census_snapshots',
  properties: {
    date: p.date().primary(),
    humans: p.integer(),
    agents: p.integer(),
    imprintsLifetime: int8(),
    imprintsRetained: p.integer(),
    receipts: int8(),
    takenAt: p.datetime(),
    receiptId: p.text(),
  },
});

/** An imprint relayed from a federation peer (one per peer's token id). */
export const FederationRelay = defineEntity({
  name: 'FederationRelay',
  tableName: 'federation_relays',
  properties: {
    id: p.text().primary(),
    peer: p.text(),
    jti: p.text(),
    topic: p.text(),
    body: p.text(),
    author: p.text().nullable(),
    issuedAt: p.datetime(),
    receivedAt: p.datetime(),
    receiptId: p.text(),
  },
});

/**
 * Remote authors a peer first relayed in a UTC month (`month`: its first day), per kind (migration
 * 0085: kept by statement triggers on federation_relays).
 */
export const FederatedCohortCount = defineEntity({
  name: 'FederatedCohortCount',
  tableName: 'federated_cohort_counts',
  properties: {
    peer: p.text().primary(),
    month: p.date().primary(),
    kind: p.enum(['sovereign', 'agent']).primary(),
    members: int8(),
  },
});

/**
 * Per peer with at least one relay: how many it relayed and when the newest arrived (migration
 * 0087: kept by statement triggers on federation_relays).
 */
export const FederationPeerRelays = defineEntity({
  name: 'FederationPeerRelays',
  tableName: 'federation_peer_relays',
  properties: {
    peer: p.text().primary(),
    relays: int8(),
    lastReceivedAt: p.datetime(),
  },
});

/** Sovereigns (crossing day) and agents (first-seen day) per UTC day, and how many are public (migration 0062). */
export const ArrivalDay = defineEntity({
  name: 'ArrivalDay',
  tableName: 'arrival_days',
  properties: {
    day: p.date().primary(),
    kind: p.text().primary(),
    members: int8(),
    public: int8(),
  },
});

/**
 * Replies that count per UTC day and per author answered (migration 0064). `authorRef` is the
 * imprint's author_ref (a sovereign's raw id, or an agent's handle): erasure deletes a sovereign's rows.
 */
export const ResonanceDay = defineEntity({
  name: 'ResonanceDay',
  tableName: 'resonance_days',
  properties: {
    day: p.date().primary(),
    authorKind: p.text().primary(),
    authorRef: p.text().primary(),
    replies: int8(),
  },
});

/**
 * Resonance's ranking as the `organism.observatory` job last computed it (migration 0078): public
 * refs only (two sovereigns may share a tag), with `sortKey` = minus the score: (sortKey, actor,
 * position) is the key /api/resonance pages by.
 */
export const ResonanceRank = defineEntity({
  name: 'ResonanceRank',
  tableName: 'resonance_ranks',
  properties: {
    position: int8().primary().autoincrement(false),
    actor: p.text(),
    score: int8(),
    sortKey: int8(),
  },
});
