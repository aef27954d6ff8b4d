/**
 * Boundaries that keep raw actor ids off machine surfaces: actor_id, denial_receipt,
 * quarantine_projection. Each projector builds its output field by field (an allow-list).
 */
import { publicActorRef, type ActorIdentity } from '../actor-ref.ts';
import type { ExportRole } from '../keys.ts';
import { projectHeldSpam, type HeldSpamRecord, type HeldSpamSummary } from './spam.ts';

export interface ActorRef {
  kind: 'sovereign' | 'agent';
  ref: string;
  /** The visible callsign when the sovereign chose to show it, else the public ref. */
  display: string;
}

/** actor_id — `/api/state`, `/api/orders`, `/api/quarantine` and every machine surface naming an actor. */
export function projectActorRef(actor: ActorIdentity): ActorRef {
  const ref = publicActorRef(actor);
  const callsign =
    actor.kind === 'sovereign' && actor.callsign_visible === true && typeof actor.callsign === 'string'
      ? actor.callsign
      : null;
  return { kind: actor.kind === 'agent' ? 'agent' : 'sovereign', ref, display: callsign ?? ref };
}

/** A denied step as the ledger stores it: who crossed, who was denied, and the steward's private side. */
export interface DenialRecord {
  receipt_id: string;
  step: string;
  denied_action: string;
  reason: string;
  actor: ActorIdentity;
  /** The other party of a crossing denial (e.g. the sovereign whose key was tried). */
  crossing_actor_id: string | null;
  recorded_at: string;
  leaf_hash: string;
  log: { date: string; leaf_index: number };
  steward_note?: string | null;
  request_ip?: string | null;
  session_id?: string | null;
}

export interface DenialReceipt {
  id: string;
  step: string;
  subject: string;
  denied_action: string;
  reason: string;
  recorded_at: string;
  leaf_hash: string;
  log: { date: string; leaf_index: number };
}

/** denial_receipt — `/api/transparency`, `/api/quarantine`, `/verify/{id}`, `/api/state`. */
export function projectDenialReceipt(denial: DenialRecord): DenialReceipt {
  return {
    id: denial.receipt_id,
    step: denial.step,
    subject: publicActorRef(denial.actor),
    denied_action: denial.denied_action,
    reason: denial.reason,
    recorded_at: denial.recorded_at,
    leaf_hash: denial.leaf_hash,
    log: { date: denial.log.date, leaf_index: denial.log.leaf_index },
  };
}

/** An imprint set aside from collective learning: `unattested` (open handle, sessionless human). */
export interface UnattestedRecord {
  sequence: number;
  author: ActorIdentity;
  reason: string;
  quarantined_at: string;
  steward_note?: string | null;
}

export interface QuarantineRecord {
  unattested: UnattestedRecord[];
  held: HeldSpamRecord[];
}

export interface QuarantineView {
  unattested: { sequence: number; author: string; reason: string; since: string }[];
  unattested_count: number;
  held: HeldSpamSummary;
}

/** quarantine_projection — `/api/quarantine`, `/api/state`, `/verify/{id}`. Held entries are counts only. */
export function projectQuarantine(quarantine: QuarantineRecord): QuarantineView {
  return {
    unattested: quarantine.unattested.map((entry) => ({
      sequence: entry.sequence,
      author: publicActorRef(entry.author),
      reason: entry.reason,
      since: entry.quarantined_at,
    })),
    unattested_count: quarantine.unattested.length,
    held: projectHeldSpam(quarantine.held),
  };
}

export const BOUNDARY_EXPORT_ROLES = {
  projectActorRef: 'censused',
  projectDenialReceipt: 'censused',
  projectQuarantine: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
