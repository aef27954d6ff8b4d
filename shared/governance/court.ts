/**
 * Pledges and the court (pure: no I/O). DESIGN.md section 5, governance: sovereigns pledge to
 * articles and axioms and back each other's pledges; court cases come from disputed steward triage,
 * jurors sign verdicts, three concurring signatures make a verdict final and a final verdict sets a
 * precedent. Every actor leaves through projectActorRef (governanceActor) by public tag only; a
 * steward's private note never enters these records.
 */
import type { ActorIdentity } from '../boundaries/actor-ref.ts';
import { governanceActor } from './rules.ts';
import { count } from '../plural.ts';

export const JURORS_REQUIRED = 3;
export const PLEDGE_TEXT_MAX = 500;
export const REASON_MAX = 2000;

/** `plg_` + a ULID. */
export const PLEDGE_ID = /^plg_[0-9A-HJKMNP-TV-Z]{26}$/i;
/** `case_` + a ULID. */
export const CASE_ID = /^case_[0-9A-HJKMNP-TV-Z]{26}$/i;
/** `precedent-<n>`, numbered from 1 in the order verdicts became final. */
export const PRECEDENT_ID = /^precedent-[1-9][0-9]{0,8}$/;
/** A court case's target: an imprint that a steward triaged. */
export const CASE_TARGET = /^imprint:([1-9][0-9]{0,15})$/;

export const normalizePrefixed = (prefix: string, value: string): string =>
  `${prefix}${value.slice(prefix.length).toUpperCase()}`;

export const PLEDGE_STATUSES = ['active', 'upheld', 'lapsed'] as const;
export type PledgeStatus = (typeof PLEDGE_STATUSES)[number];
export const REVIEW_OUTCOMES = ['upheld', 'lapsed'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];
export const VERDICTS = ['uphold', 'overturn'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Signed {
  actor: ActorIdentity;
  at: string;
  receipt_id: string;
}

export interface PledgeRecord {
  id: string;
  article: string;
  article_title: string | null;
  text: string | null;
  pledger: ActorIdentity;
  status: PledgeStatus;
  created_at: string;
  receipt_id: string;
  reviewed_at: string | null;
  backs: Signed[];
  reviews: (Signed & { outcome: ReviewOutcome })[];
}

const signed = (s: Signed) => ({ by: governanceActor(s.actor), at: s.at, receipt_id: s.receipt_id });

/** The one projection of a pledge (allow-list). */
export function projectPledge(p: PledgeRecord) {
  return {
    id: p.id,
    article: p.article,
    article_title: p.article_title,
    text: p.text,
    by: governanceActor(p.pledger),
    made_at: p.created_at,
    status: p.status,
    live: p.status !== 'lapsed',
    backers: { count: p.backs.length, by: p.backs.map(signed) },
    reviews: p.reviews.map((r) => ({ ...signed(r), outcome: r.outcome })),
    reviewed_at: p.reviewed_at,
    receipt_id: p.receipt_id,
  };
}

export interface JurorSignature extends Signed {
  verdict: Verdict;
  reason: string;
}

export interface CaseRecord {
  id: string;
  sequence: number;
  /** The disputed steward decision: its action and receipt, never its note or its steward. */
  disputed: { action: string; decided_at: string; receipt_id: string };
  opener: ActorIdentity;
  reason: string | null;
  state: 'open' | 'final';
  outcome: Verdict | null;
  opened_at: string;
  receipt_id: string;
  final_at: string | null;
  final_receipt_id: string | null;
  precedent_id: string | null;
  signatures: JurorSignature[];
}

const juror = (s: JurorSignature) => ({
  by: governanceActor(s.actor),
  verdict: s.verdict,
  reason: s.reason,
  at: s.at,
  receipt_id: s.receipt_id,
});

const ACTION_WORDS: Record<string, string> = {
  release: 'release a held imprint into the Record',
  keep_held: 'keep a held imprint held',
  dismiss: 'dismiss the reports on an imprint as unfounded',
};

export const actionWords = (action: string): string => ACTION_WORDS[action] ?? action;

/** What a final verdict holds, in words (the precedent's holding). */
export function holdingOf(action: string, outcome: Verdict): string {
  return outcome === 'uphold'
    ? `A steward's decision to ${actionWords(action)} stands when a jury of ${JURORS_REQUIRED} finds it sound.`
    : `A steward's decision to ${actionWords(action)} is overturned when a jury of ${JURORS_REQUIRED} finds it unsound; the decision no longer stands as the court's record.`;
}

/** The signatures on the losing side of a final verdict. */
export function dissentOf(c: CaseRecord): JurorSignature[] {
  if (c.state !== 'final' || !c.outcome) return [];
  return c.signatures.filter((s) => s.verdict !== c.outcome);
}

/** The one projection of a court case and its verdict (allow-list). */
export function projectCase(c: CaseRecord) {
  const uphold = c.signatures.filter((s) => s.verdict === 'uphold').length;
  const overturn = c.signatures.length - uphold;
  return {
    id: c.id,
    target: `imprint:${c.sequence}`,
    disputed: {
      action: c.disputed.action,
      meaning: `the steward's decision to ${actionWords(c.disputed.action)}`,
      decided_at: c.disputed.decided_at,
      receipt_id: c.disputed.receipt_id,
    },
    opened_by: governanceActor(c.opener),
    opened_at: c.opened_at,
    reason: c.reason,
    receipt_id: c.receipt_id,
    state: c.state,
    outcome: c.outcome,
    signatures: { uphold, overturn, required: JURORS_REQUIRED, by: c.signatures.map(juror) },
    dissent: dissentOf(c).map(juror),
    final_at: c.final_at,
    final_receipt_id: c.final_receipt_id,
    precedent_id: c.precedent_id,
    links: {
      verify: `/verify/court/${c.id}`,
      precedent: c.precedent_id ? `/api/court/precedent/${c.precedent_id}` : null,
    },
    next:
      c.state === 'final'
        ? `Final: ${c.outcome === 'overturn' ? 'overturned' : 'upheld'} by ${JURORS_REQUIRED} concurring jurors.`
        : `Needs ${count(JURORS_REQUIRED - Math.max(uphold, overturn), 'more concurring juror signature', 'more concurring juror signatures')} (POST /sovereign/court-sign; not the case opener).`,
  };
}

export type CaseView = ReturnType<typeof projectCase>;
export const jurorView = juror;
