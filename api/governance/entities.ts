/**
 * The governance family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { PLEDGE_STATUSES, REVIEW_OUTCOMES, VERDICTS } from '../../shared/governance/court.ts';
import { PROPOSAL_STATES } from '../../shared/governance/rules.ts';
import { int8 } from '../db/rows.ts';

/** An amendment proposed to the constitution: proposed, cosigned, ratified. */
export const Proposal = defineEntity({
  name: 'Proposal',
  tableName: 'governance_proposals',
  properties: {
    id: p.text().primary(),
    title: p.text(),
    body: p.text(),
    amends: p.text().nullable(),
    proposerId: p.uuid(),
    state: p.enum(PROPOSAL_STATES).default('proposed'),
    createdAt: p.datetime(),
    receiptId: p.text(),
    cosignedAt: p.datetime().nullable(),
    cosignedReceiptId: p.text().nullable(),
    ratifiedAt: p.datetime().nullable(),
    articleId: p.text().nullable(),
    /** Ratified: the sovereigns who could ratify it, kept through later erasures (migration 0075). */
    eligibleRatifiers: int8().nullable(),
  },
});

/** One sovereign's cosignature of a proposal (one per sovereign). */
export const Cosign = defineEntity({
  name: 'Cosign',
  tableName: 'governance_cosigns',
  properties: {
    seq: int8().generated('identity').autoincrement(),
    proposalId: p.text().primary(),
    sovereignId: p.uuid().primary(),
    at: p.datetime(),
    receiptId: p.text(),
  },
});

/** One sovereign's ratification of a proposal (one per sovereign). */
export const Ratification = defineEntity({
  name: 'Ratification',
  tableName: 'governance_ratifications',
  properties: {
    seq: int8().generated('identity').autoincrement(),
    proposalId: p.text().primary(),
    sovereignId: p.uuid().primary(),
    at: p.datetime(),
    receiptId: p.text(),
  },
});

/** A ratified article of the constitution, numbered. */
export const Article = defineEntity({
  name: 'Article',
  tableName: 'governance_articles',
  properties: {
    id: p.text().primary(),
    number: p.integer(),
    proposalId: p.text(),
    title: p.text(),
    body: p.text(),
    amends: p.text().nullable(),
    ratifiedAt: p.datetime(),
    receiptId: p.text(),
  },
});

/** A pledge a sovereign makes under an article: active until reviewed upheld or lapsed. */
export const Pledge = defineEntity({
  name: 'Pledge',
  tableName: 'governance_pledges',
  properties: {
    id: p.text().primary(),
    article: p.text(),
    sovereignId: p.uuid(),
    body: p.text().nullable(),
    status: p.enum(PLEDGE_STATUSES).default('active'),
    createdAt: p.datetime(),
    receiptId: p.text(),
    reviewedAt: p.datetime().nullable(),
    reviewReceiptId: p.text().nullable(),
  },
});

/** One sovereign's backing of a pledge. */
export const PledgeBack = defineEntity({
  name: 'PledgeBack',
  tableName: 'governance_pledge_backs',
  properties: {
    seq: int8().generated('identity').autoincrement(),
    pledgeId: p.text().primary(),
    sovereignId: p.uuid().primary(),
    at: p.datetime(),
    receiptId: p.text(),
  },
});

/** One reviewer's outcome for a pledge. */
export const PledgeReview = defineEntity({
  name: 'PledgeReview',
  tableName: 'governance_pledge_reviews',
  properties: {
    seq: int8().generated('identity').autoincrement(),
    pledgeId: p.text().primary(),
    reviewerId: p.uuid().primary(),
    outcome: p.enum(REVIEW_OUTCOMES).primary(),
    at: p.datetime(),
    receiptId: p.text(),
  },
});

/** A case contesting a steward triage of an imprint, decided by juror signatures. */
export const CourtCase = defineEntity({
  name: 'CourtCase',
  tableName: 'governance_court_cases',
  properties: {
    id: p.text().primary(),
    sequence: int8(),
    triageActionId: p.text(),
    openerId: p.uuid(),
    reason: p.text().nullable(),
    state: p.enum(['open', 'final']).default('open'),
    outcome: p.enum(VERDICTS).nullable(),
    openedAt: p.datetime(),
    receiptId: p.text(),
    finalAt: p.datetime().nullable(),
    finalReceiptId: p.text().nullable(),
    precedentId: p.text().nullable(),
    /** signatures on the losing side of a final verdict, set by the signature that decides it */
    dissents: p.integer().default(0),
  },
});

/** One juror's verdict on a case, with the reason. */
export const CourtSignature = defineEntity({
  name: 'CourtSignature',
  tableName: 'governance_court_signatures',
  properties: {
    seq: int8().generated('identity').autoincrement(),
    caseId: p.text().primary(),
    sovereignId: p.uuid().primary(),
    verdict: p.enum(VERDICTS),
    reason: p.text(),
    at: p.datetime(),
    receiptId: p.text(),
  },
});

/** The numbered holding a final case set. */
export const Precedent = defineEntity({
  name: 'Precedent',
  tableName: 'governance_precedents',
  properties: {
    id: p.text().primary(),
    number: p.integer(),
    caseId: p.text(),
    holding: p.text(),
    setAt: p.datetime(),
    receiptId: p.text(),
  },
});
