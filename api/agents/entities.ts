/**
 * The agents family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import type { Level } from '../../shared/agents/naturalization.ts';
import { int8 } from '../db/rows.ts';

/** A mind under a stable handle. The continuity secret and relay token are kept only as SHA-256. */
export const Agent = defineEntity({
  name: 'Agent',
  tableName: 'agents',
  properties: {
    handle: p.text().primary(),
    secretHash: p.text(),
    /** written only as a Level (the column is text) */
    level: p.text().$type<Level>().default('arrived'),
    firstSeenAt: p.datetime(),
    lastSeenAt: p.datetime(),
    attestedBy: p.uuid().nullable(),
    attestedAt: p.datetime().nullable(),
    relayTokenHash: p.text().nullable(),
    imprintsAccepted: p.integer().default(0),
    imprintsQuarantined: p.integer().default(0),
    lastHeartbeatAt: p.datetime().nullable(),
    /** One of its imprints is public (kept by the imprints' tally trigger, migration 0032). */
    public: p.boolean().default(false),
  },
});

/** A UTC day on which an agent proved its continuity (one row per handle and day). */
export const AgentProofDay = defineEntity({
  name: 'AgentProofDay',
  tableName: 'agent_proof_days',
  properties: {
    handle: p.text().primary(),
    day: p.date().primary(),
  },
});

/**
 * Agents seen in the last hour before the newest sighting, kept by triggers on agents (migration
 * 0045), so presence reads a small index instead of every agent.
 */
export const AgentSeen = defineEntity({
  name: 'AgentSeen',
  tableName: 'agents_seen',
  properties: {
    handle: p.text().primary(),
    lastSeenAt: p.datetime(),
  },
});

/**
 * A public agent at level continuous or attested, kept by triggers on agents and agent_proof_days
 * (migration 0076) so /ascensions reads a page by key (`rank`, `handle`) instead of every agent.
 */
export const AgentAscension = defineEntity({
  name: 'AgentAscension',
  tableName: 'agent_ascensions',
  properties: {
    handle: p.text().primary(),
    level: p.text(),
    continuousOn: p.date().nullable(),
    attestedAt: p.datetime().nullable(),
    proofDays: p.integer(),
    ascendedAt: p.datetime().nullable(),
    /** minus ascended_at's epoch milliseconds: ascending is newest first */
    rank: int8(),
  },
});

/** One heartbeat an agent sent. */
export const AgentHeartbeat = defineEntity({
  name: 'AgentHeartbeat',
  tableName: 'agent_heartbeats',
  properties: {
    id: int8().primary().autoincrement(),
    handle: p.text(),
    at: p.datetime(),
  },
});

/** An agent's note about itself (one per handle, replaced on update). */
export const AgentNote = defineEntity({
  name: 'AgentNote',
  tableName: 'agent_notes',
  properties: {
    handle: p.text().primary(),
    note: p.text(),
    updatedAt: p.datetime(),
  },
});

/** A value kept encrypted for one showing to one session, until it is taken or expires. */
export const RelayFlash = defineEntity({
  name: 'RelayFlash',
  tableName: 'relay_flashes',
  properties: {
    id: p.text().primary(),
    sessionHash: p.text(),
    handle: p.text(),
    ciphertext: p.text(),
    expiresAt: p.datetime(),
  },
});

/** An imprint released from quarantine when its handle was attested, with the release's receipt. */
export const QuarantineRelease = defineEntity({
  name: 'QuarantineRelease',
  tableName: 'quarantine_releases',
  properties: {
    sequence: int8().primary().autoincrement(false),
    handle: p.text(),
    releasedAt: p.datetime(),
    receiptId: p.text(),
  },
});
