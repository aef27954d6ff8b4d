/** Synthetic actors shared by the probe literals. Every private field holds a sentinel. */
import type { ActorIdentity } from '../actor-ref.ts';
import type { ExportRole } from '../keys.ts';
import { SENTINEL } from '../sentinels.ts';

/** A sovereign whose callsign is hidden: only `sovereign:a1f3` may appear. */
export const PROBE_SOVEREIGN: ActorIdentity = {
  actor_id: SENTINEL.raw_id,
  kind: 'sovereign',
  tag: 'a1f3',
  handle: null,
  callsign: SENTINEL.hidden_callsign,
  callsign_visible: false,
  callsign_root: SENTINEL.callsign_root,
  email: SENTINEL.email,
  secret_hash: SENTINEL.secret_hash,
};

/** A sovereign who shows the callsign `Lumen`. */
export const PROBE_VISIBLE_SOVEREIGN: ActorIdentity = {
  actor_id: SENTINEL.raw_id_3,
  kind: 'sovereign',
  tag: '7c20',
  handle: null,
  callsign: 'Lumen',
  callsign_visible: true,
  callsign_root: SENTINEL.callsign_root,
  email: SENTINEL.email,
  secret_hash: SENTINEL.secret_hash,
};

export const PROBE_AGENT: ActorIdentity = {
  actor_id: SENTINEL.raw_id_2,
  kind: 'agent',
  tag: null,
  handle: 'probe-mind',
  secret_hash: SENTINEL.secret,
};

export const BOUNDARY_EXPORT_ROLES = {
  PROBE_SOVEREIGN: 'vocabulary',
  PROBE_VISIBLE_SOVEREIGN: 'vocabulary',
  PROBE_AGENT: 'vocabulary',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
