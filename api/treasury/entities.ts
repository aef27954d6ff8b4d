/**
 * The treasury family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';
import type { z } from 'zod';
import { int8 } from '../db/rows.ts';
import type { AuthorizationReason, oracleReportSchema } from '../../shared/treasury/holder-contract.ts';

/** A payment intent: what is being paid for, by whom, and its checkout status. */
export const TreasuryIntent = defineEntity({
  name: 'TreasuryIntent',
  tableName: 'treasury_intents',
  properties: {
    id: p.text().primary(),
    purpose: p.enum(['oracle', 'patronage', 'covenant', 'fund_evolution', 'inscription']),
    holderKind: p.enum(['sovereign', 'agent']),
    holderRef: p.text(),
    publicRef: p.text(),
    amountCents: int8(),
    currency: p.text(),
    uses: p.integer().default(0),
    /** What the checkout was for beyond its purpose (an inscription's text, a patron's listing). */
    detail: p.json<Record<string, unknown>>().defaultRaw("'{}'::jsonb"),
    checkoutSessionId: p.text().nullable(),
    status: p.enum(['open', 'awaiting_payment', 'payment_failed', 'paid']).default('open'),
    createdAt: p.datetime(),
    paidAt: p.datetime().nullable(),
  },
});

/** A payment-provider event already processed (processed once only). */
export const TreasuryProcessedEvent = defineEntity({
  name: 'TreasuryProcessedEvent',
  tableName: 'treasury_processed_events',
  properties: {
    eventId: p.text().primary(),
    type: p.text(),
    outcome: p.text(),
    processedAt: p.datetime(),
  },
});

/** A payment received, from one provider event. */
export const TreasuryPayment = defineEntity({
  name: 'TreasuryPayment',
  tableName: 'treasury_payments',
  properties: {
    id: p.text().primary(),
    eventId: p.text(),
    intentId: p.text().nullable(),
    purpose: p.text(),
    holderKind: p.text().nullable(),
    holderRef: p.text().nullable(),
    amountCents: int8(),
    currency: p.text(),
    customerId: p.text().nullable(),
    receivedAt: p.datetime(),
  },
});

/** A capability a payment granted, with its uses left. */
export const TreasuryEntitlement = defineEntity({
  name: 'TreasuryEntitlement',
  tableName: 'treasury_entitlements',
  properties: {
    id: p.text().primary(),
    holderKind: p.enum(['sovereign', 'agent']),
    holderRef: p.text(),
    capability: p.text(),
    usesTotal: p.integer(),
    usesLeft: p.integer(),
    paymentId: p.text(),
    grantedAt: p.datetime(),
  },
});

/** A paid oracle report, spent from an entitlement. */
export const OracleReport = defineEntity({
  name: 'OracleReport',
  tableName: 'oracle_reports',
  properties: {
    id: p.text().primary(),
    holderKind: p.text(),
    holderRef: p.text(),
    entitlementId: p.text(),
    /** As oracleReport (./oracle.ts) wrote it: the contract's deep report. */
    report: p.json<z.infer<typeof oracleReportSchema>>(),
    receiptId: p.text(),
    createdAt: p.datetime(),
  },
});

/** A named spending strategy with its per-authorization and daily limits. */
export const TreasuryStrategy = defineEntity({
  name: 'TreasuryStrategy',
  tableName: 'treasury_strategies',
  properties: {
    name: p.text().primary(),
    category: p.text(),
    description: p.text(),
    currency: p.text(),
    perAuthorizationCents: int8(),
    dailyCents: int8(),
  },
});

/** A spending authorization decided against a strategy. */
export const TreasuryAuthorization = defineEntity({
  name: 'TreasuryAuthorization',
  tableName: 'treasury_authorizations',
  properties: {
    authorizationId: p.text().primary(),
    eventId: p.text().nullable(),
    strategy: p.text().nullable(),
    amountCents: int8(),
    currency: p.text(),
    approved: p.boolean(),
    reason: p.text().$type<AuthorizationReason>(),
    decidedAt: p.datetime(),
  },
});

/** A patron (one row per holder) and the units of patronage they hold. */
export const TreasuryPatron = defineEntity({
  name: 'TreasuryPatron',
  tableName: 'treasury_patrons',
  properties: {
    holderKind: p.text().$type<'sovereign' | 'agent'>().primary(),
    holderRef: p.text().primary(),
    publicRef: p.text(),
    listed: p.boolean().default(false),
    units: int8().defaultRaw('0'),
    since: p.datetime(),
    /** A random value of the row's own: the listed patrons' page key after `since` (migration 0091). */
    pageKey: p.text().defaultRaw('(gen_random_uuid())::text'),
  },
});

/**
 * How many patrons hold each number of units (migration 0090: kept by statement triggers on
 * treasury_patrons; a row at 0 is a holding nobody has any more).
 */
export const TreasuryUnits = defineEntity({
  name: 'TreasuryUnits',
  tableName: 'treasury_units',
  properties: {
    units: int8().primary().autoincrement(false),
    holders: int8(),
  },
});

/** A paid inscription: a body published under a public ref. */
export const TreasuryInscription = defineEntity({
  name: 'TreasuryInscription',
  tableName: 'treasury_inscriptions',
  properties: {
    id: p.text().primary(),
    paymentId: p.text(),
    body: p.text(),
    publicRef: p.text(),
    inscribedAt: p.datetime(),
  },
});
