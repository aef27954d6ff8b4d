/**
 * Boundaries over the spam gate: held_spam and contribution_feed. Held bodies and names never
 * leave — only counts and the gate's reason codes, worded from a fixed vocabulary.
 */
import { publicActorRef, type ActorIdentity } from '../actor-ref.ts';
import type { ExportRole } from '../keys.ts';

/** The gate's rules (DESIGN.md section 3) and the public words for each. */
export const HOLD_REASONS = {
  link_density: 'too many links',
  repetition: 'repeated text',
  bad_pattern: 'known spam pattern',
  burst: 'burst of submissions',
  other: 'held by the gate',
} as const;
export type HoldRule = keyof typeof HOLD_REASONS;

export interface HeldSpamRecord {
  hold_id: string;
  /** The held text itself: never public. */
  body: string;
  /** The name or handle the submission claimed: never public. */
  name: string | null;
  author: ActorIdentity | null;
  rule: string;
  /** Free text the gate or a steward wrote: never public (it may quote the body). */
  detail?: string | null;
  status: 'held' | 'released' | 'dismissed';
  held_at: string;
  steward_note?: string | null;
  /**
   * How many holds this record stands for, alike in every field above (default 1): the held
   * imprints of one rule come as one record counted by its tally (api/record/queries.ts), so the
   * summary costs the number of rules, not the number of held imprints. 0 or less counts none.
   */
  count?: number;
}

export interface HeldSpamSummary {
  held: number;
  reasons: { rule: HoldRule; reason: string; count: number }[];
}

/** held_spam — state, lessons, feeds, `/collaborate`, `/ledger`: counts and reasons of what is held. */
export function projectHeldSpam(holds: readonly HeldSpamRecord[]): HeldSpamSummary {
  const counts = new Map<HoldRule, number>();
  let held = 0;
  for (const hold of holds) {
    const n = hold.count ?? 1;
    if (hold.status !== 'held' || !(n > 0)) continue;
    held += n;
    const rule: HoldRule = Object.hasOwn(HOLD_REASONS, hold.rule) ? (hold.rule as HoldRule) : 'other';
    counts.set(rule, (counts.get(rule) ?? 0) + n);
  }
  const reasons = [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rule, count]) => ({ rule, reason: HOLD_REASONS[rule], count }));
  return { held, reasons };
}

/** An imprint as the Record stores it, before it becomes a JSON Feed 1.1 item. */
export interface ContributionRecord {
  sequence: number;
  kind: 'thought' | 'question' | 'signal';
  /** Null once the imprint has left the 500-row window. */
  body: string | null;
  author: ActorIdentity;
  /** The raw sovereign id a sessionless human typed or a session resolved to. */
  sovereign_id?: string | null;
  quarantine: 'none' | 'unattested' | 'held';
  hold_rule?: string | null;
  receipt_id: string;
  reply_to: number | null;
  created_at: string;
  spam_score?: number | null;
}

export interface ContributionFeedItem {
  id: string;
  url: string;
  content_text: string | null;
  date_published: string;
  authors: { name: string }[];
  _civitas: {
    sequence: number;
    kind: string;
    unattested: boolean;
    receipt_id: string;
    reply_to: number | null;
  };
}

/**
 * contribution_feed — `/imprint/feed.json`, `/collaborate/feed.json`. A held imprint is not an
 * item at all (null): it exists publicly only as a count in projectHeldSpam.
 */
export function projectContributionFeedItem(imprint: ContributionRecord): ContributionFeedItem | null {
  if (imprint.quarantine === 'held') return null;
  return {
    id: `imprint:${imprint.sequence}`,
    url: `/imprint#i${imprint.sequence}`,
    content_text: imprint.body,
    date_published: imprint.created_at,
    authors: [{ name: publicActorRef(imprint.author) }],
    _civitas: {
      sequence: imprint.sequence,
      kind: imprint.kind,
      unattested: imprint.quarantine === 'unattested',
      receipt_id: imprint.receipt_id,
      reply_to: imprint.reply_to,
    },
  };
}

export const BOUNDARY_EXPORT_ROLES = {
  HOLD_REASONS: 'vocabulary',
  projectHeldSpam: 'censused',
  projectContributionFeedItem: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
