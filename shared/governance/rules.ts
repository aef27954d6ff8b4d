/**
 * Constitution rules and projections (pure: no I/O). DESIGN.md section 5, governance: a proposal
 * needs 3 cosigns from sovereigns other than its proposer, then 2 ratifications by distinct
 * sovereigns (not the proposer) carrying an external human-uniqueness receipt; then it becomes an
 * article. Every actor leaves through projectActorRef by public tag only.
 */
import { projectActorRef, type ActorRef } from '../boundaries/projectors/actors.ts';
import type { ActorIdentity } from '../boundaries/actor-ref.ts';
import { AXIOM_ID } from './axioms.ts';
import { count } from '../plural.ts';

export const COSIGNS_REQUIRED = 3;
export const RATIFICATIONS_REQUIRED = 2;
export const TITLE_MAX = 120;
export const TEXT_MAX = 4000;

export const PROPOSAL_STATES = ['proposed', 'cosigned', 'ratified'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

/** `prop_` + a ULID (Crockford base32, 26 characters). */
export const PROPOSAL_ID = /^prop_[0-9A-HJKMNP-TV-Z]{26}$/i;
/** `article-<n>`, numbered from 1 in ratification order. */
export const ARTICLE_ID = /^article-[1-9][0-9]{0,8}$/;

export type ClaimRef =
  { kind: 'proposal'; id: string } | { kind: 'article'; id: string } | { kind: 'axiom'; id: string };

/** A claim id for /provenance/{claim}: a proposal, article or axiom id; anything else is malformed. */
export function parseClaim(value: string): ClaimRef | null {
  if (PROPOSAL_ID.test(value)) return { kind: 'proposal', id: `prop_${value.slice(5).toUpperCase()}` };
  if (ARTICLE_ID.test(value)) return { kind: 'article', id: value };
  if (AXIOM_ID.test(value)) return { kind: 'axiom', id: value };
  return null;
}

export function normalizeProposalId(value: string): string {
  return `prop_${value.slice(5).toUpperCase()}`;
}

/** Stored facts about one signature (a cosign or a ratification). */
export interface SignatureRecord {
  actor: ActorIdentity;
  at: string;
  receipt_id: string;
}

export interface ProposalRecord {
  id: string;
  title: string;
  text: string;
  amends: string | null;
  state: ProposalState;
  proposer: ActorIdentity;
  created_at: string;
  receipt_id: string;
  cosigned_at: string | null;
  /** The receipt of the cosign that completed the cosigns. */
  cosigned_receipt_id: string | null;
  ratified_at: string | null;
  article_id: string | null;
  cosigns: SignatureRecord[];
  ratifications: SignatureRecord[];
}

export interface ArticleRecord {
  id: string;
  number: number;
  proposal_id: string;
  title: string;
  text: string;
  amends: string | null;
  ratified_at: string;
  receipt_id: string;
}

/** Public tag only: the callsign is not carried into governance surfaces. */
export function governanceActor(actor: ActorIdentity): ActorRef {
  return projectActorRef({ actor_id: actor.actor_id, kind: 'sovereign', tag: actor.tag });
}

const signature = (s: SignatureRecord) => ({
  by: governanceActor(s.actor),
  at: s.at,
  receipt_id: s.receipt_id,
});

/** What the proposal needs next, in words. */
export function nextStep(state: ProposalState, cosigns: number, ratifications: number): string {
  if (state === 'proposed')
    return `Needs ${count(COSIGNS_REQUIRED - cosigns, 'more cosign', 'more cosigns')} from sovereigns other than the proposer (POST /api/constitution/cosign).`;
  if (state === 'cosigned')
    return `Needs ${count(RATIFICATIONS_REQUIRED - ratifications, 'more ratification', 'more ratifications')} by sovereigns carrying a human-uniqueness receipt (POST /api/constitution/ratify).`;
  return 'Ratified: it is an article of the constitution.';
}

export interface ProposalView {
  id: string;
  title: string;
  text: string;
  amends: string | null;
  state: ProposalState;
  proposer: ActorRef;
  proposed_at: string;
  receipt_id: string;
  cosigns: { count: number; required: number; by: ReturnType<typeof signature>[] };
  ratifications: { count: number; required: number; by: ReturnType<typeof signature>[] };
  cosigned_at: string | null;
  ratified_at: string | null;
  article_id: string | null;
  next: string;
}

/** The one projection of a proposal (allow-list). */
export function projectProposal(p: ProposalRecord): ProposalView {
  return {
    id: p.id,
    title: p.title,
    text: p.text,
    amends: p.amends,
    state: p.state,
    proposer: governanceActor(p.proposer),
    proposed_at: p.created_at,
    receipt_id: p.receipt_id,
    cosigns: { count: p.cosigns.length, required: COSIGNS_REQUIRED, by: p.cosigns.map(signature) },
    ratifications: {
      count: p.ratifications.length,
      required: RATIFICATIONS_REQUIRED,
      by: p.ratifications.map(signature),
    },
    cosigned_at: p.cosigned_at,
    ratified_at: p.ratified_at,
    article_id: p.article_id,
    next: nextStep(p.state, p.cosigns.length, p.ratifications.length),
  };
}

/** The one projection of an article; `amended_by` lists later articles that amend it. */
export function projectArticle(a: ArticleRecord, all: ArticleRecord[]) {
  return {
    id: a.id,
    number: a.number,
    title: a.title,
    text: a.text,
    amends: a.amends,
    amended_by: all.filter((other) => other.amends === a.id).map((other) => other.id),
    proposal_id: a.proposal_id,
    ratified_at: a.ratified_at,
    receipt_id: a.receipt_id,
    provenance: `/provenance/${a.id}`,
  };
}

export interface LineageEvent {
  step: 'proposed' | 'cosign' | 'cosigned' | 'ratification' | 'ratified';
  at: string;
  by: ActorRef | null;
  receipt_id: string;
}

/**
 * The history of a proposal, oldest first: proposed → cosigns → cosigned → ratifications →
 * ratified (as an article). The `cosigned` and `ratified` transitions carry the receipt of the
 * signature (or enactment) that made them.
 */
export function lineageOf(p: ProposalRecord, article: ArticleRecord | null): LineageEvent[] {
  const events: LineageEvent[] = [
    { step: 'proposed', at: p.created_at, by: governanceActor(p.proposer), receipt_id: p.receipt_id },
  ];
  for (const s of p.cosigns)
    events.push({ step: 'cosign', at: s.at, by: governanceActor(s.actor), receipt_id: s.receipt_id });
  if (p.cosigned_at && p.cosigned_receipt_id)
    events.push({ step: 'cosigned', at: p.cosigned_at, by: null, receipt_id: p.cosigned_receipt_id });
  for (const s of p.ratifications)
    events.push({ step: 'ratification', at: s.at, by: governanceActor(s.actor), receipt_id: s.receipt_id });
  if (article)
    events.push({ step: 'ratified', at: article.ratified_at, by: null, receipt_id: article.receipt_id });
  return events;
}
