/**
 * Boundaries over whispers — steward-only events and notes: whisper_archive, whisper_receipt.
 */
import { publicActorRef, type ActorIdentity } from '../actor-ref.ts';
import type { ExportRole } from '../keys.ts';

export interface TimelineEventRecord {
  event_id: string;
  kind: string;
  /** `steward` marks a whisper: it exists for stewards only. */
  visibility: 'public' | 'steward';
  actor: ActorIdentity;
  summary: string;
  at: string;
  steward_note?: string | null;
  whisper_body?: string | null;
}

export interface TimelineEntry {
  id: string;
  kind: string;
  actor: string;
  summary: string;
  at: string;
}

/** whisper_archive — public timelines keep public events only; a whisper leaves no trace there. */
export function projectWhisperTimeline(events: readonly TimelineEventRecord[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const event of events) {
    if (event.visibility !== 'public') continue;
    entries.push({
      id: event.event_id,
      kind: event.kind,
      actor: publicActorRef(event.actor),
      summary: event.summary,
      at: event.at,
    });
  }
  return entries;
}

export interface WhisperReceiptRecord {
  receipt_id: string;
  step: string;
  subject: ActorIdentity;
  steward_id: string;
  steward_note: string | null;
  whisper_body: string | null;
  recorded_at: string;
  leaf_hash: string;
  log: { date: string; leaf_index: number };
}

export interface WhisperReceipt {
  id: string;
  step: string;
  subject: string;
  recorded_at: string;
  leaf_hash: string;
  log: { date: string; leaf_index: number };
}

/** whisper_receipt — public receipts, their feed and `/passport` show the step, never the note. */
export function projectWhisperReceipt(receipt: WhisperReceiptRecord): WhisperReceipt {
  return {
    id: receipt.receipt_id,
    step: receipt.step,
    subject: publicActorRef(receipt.subject),
    recorded_at: receipt.recorded_at,
    leaf_hash: receipt.leaf_hash,
    log: { date: receipt.log.date, leaf_index: receipt.log.leaf_index },
  };
}

export const BOUNDARY_EXPORT_ROLES = {
  projectWhisperTimeline: 'censused',
  projectWhisperReceipt: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
