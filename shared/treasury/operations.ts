/**
 * The treasury operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { isPublicActor } from '../actor.ts';
import { isoTime } from '../contract.ts';
import { listPageLinks, listPageQuery } from '../paging.ts';
import { operations } from '../registry/operation.ts';
import {
  checkout,
  holderFields,
  ok,
  provider,
  actorWords,
  strategySchema,
  equitySchema,
  inscriptionsSchema,
  kCount,
} from './contract.ts';
import {
  agentField,
  continuityField,
  count,
  oracleReportSchema,
  blank,
  INTENT_STATUSES,
  cents,
  signedCallback,
  stripeEvent,
  checkoutSession,
  WEBHOOK_OUTCOMES,
  issuingAuthorization,
  AUTHORIZATION_REASONS,
} from './holder-contract.ts';
import { PURPOSES } from './purposes.ts';
import { oracleQuoteSchema } from './quote.ts';

const { api, mutation, page } = operations('treasury');
/** A page read live and given no lifetime: a cache may keep it but asks before each use. */
const REVALIDATED = { GET: { policy: { cache: 'revalidate' } } } as const;

/** Treasury: paid capabilities through Stripe, the Oracle, entitlements and the treasury itself. */
export const TREASURY_OPERATIONS = [
  mutation(
    '/api/checkout',
    'Start a Stripe checkout for a paid capability; answers with the checkout address, never charges by itself',
    { identity: 'holder', unknownHandle: true, provider: 'payments', POST: checkout },
  ),
  mutation('/api/portal', 'Open the Stripe billing portal for your subscriptions', {
    scope: 'billing:manage',
    provider: 'payments',
    refuses: { POST: ['not_found'] },
    POST: {
      body: z.object({ return_to: holderFields.return_to }).passthrough(),
      form: true,
      response: z.object({ ok, portal_url: z.string() }),
    },
  }),
  mutation('/api/patronage', 'Become a patron (recurring support) through checkout', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
    POST: checkout,
  }),
  mutation('/api/covenant', 'Enter a covenant: a funded commitment toward a named capability', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
    POST: checkout,
  }),
  mutation('/api/fund-evolution', 'Fund a proposed evolution of the service', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
    POST: checkout,
  }),
  mutation('/api/inscribe', 'Buy an inscription: a paid, permanent entry outside the 500-row window', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
    POST: checkout,
  }),
  api('/api/inscriptions', 'Inscriptions: paid permanent entries', {
    GET: { query: z.object(listPageQuery(50, 200)), response: inscriptionsSchema },
  }),
  api(
    '/api/oracle',
    'Oracle: GET describes the paid deep report; POST without entitlement answers 402 with a quote, never charges',
    {
      methods: ['GET', 'POST'],
      identity: 'proof',
      identityOn: ['POST'],
      unknownHandle: true,
      GET: {
        response: z.object({
          ok,
          offers: z.string(),
          covers: z.array(z.string()),
          quote: oracleQuoteSchema,
          provider,
          doors: z.object({ run: z.string(), buy: z.string(), usage: z.string() }),
        }),
      },
      POST: {
        body: z.object({ agent: agentField, continuity: continuityField }),
        form: true,
        response: z.object({
          ok,
          report_id: z.string(),
          uses_left: count,
          receipt_id: z.string(),
          report: oracleReportSchema,
        }),
        quote: oracleQuoteSchema,
      },
    },
  ),
  mutation('/api/oracle/buy', 'Buy an Oracle report through checkout (explicit purchase, never automatic)', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
    POST: checkout,
  }),
  api('/api/oracle/session', 'The state of an Oracle purchase or report session', {
    identity: 'holder',
    unknownHandle: true,
    refuses: { GET: ['not_found'] },
    GET: {
      query: z.object({
        id: z.preprocess(
          blank,
          z
            .string()
            .regex(/^tin_[0-9A-Z]{26}$/, 'id is an intent id (tin_…)')
            .optional(),
        ),
        agent: agentField,
      }),
      response: z.object({
        ok,
        sessions: z.array(
          z.object({
            intent: z.string(),
            purpose: z.enum(PURPOSES),
            status: z.enum(INTENT_STATUSES),
            amount: cents,
            currency: z.string(),
            created_at: isoTime,
            paid_at: isoTime.nullable(),
          }),
        ),
      }),
      policy: { cache: 'private' },
    },
  }),
  api('/api/oracle/usage', 'Oracle usage against your entitlement', {
    identity: 'holder',
    unknownHandle: true,
    GET: {
      query: z.object({ agent: agentField }),
      response: z.object({
        ok,
        uses_total: count,
        uses_left: count,
        uses_consumed: count,
        reports: z.array(
          z.object({
            id: z.string(),
            created_at: isoTime,
            receipt_id: z.string(),
            report: oracleReportSchema,
          }),
        ),
      }),
      policy: { cache: 'private' },
    },
  }),
  page('/oracle', 'The Oracle: what the paid deep report covers and its price', REVALIDATED),
  page('/oracle/mine', 'Your Oracle reports', { identity: 'session' }),
  api(
    '/api/cost-oracle',
    'What a given public actor would pay for an Oracle report (a quote, not a purchase)',
    {
      publicActor: 'required',
      GET: {
        query: z.object({ actor: z.string({ error: actorWords }).refine(isPublicActor, actorWords) }),
        response: z.object({ ok, actor: z.string(), quote: oracleQuoteSchema, note: z.string() }),
      },
    },
  ),
  api(
    '/api/entitlements',
    'Entitlements of the caller: paid capabilities held (separate from session and handle)',
    {
      identity: 'session',
      GET: {
        response: z.object({
          ok,
          entitlements: z.array(
            z.object({
              id: z.string(),
              capability: z.string(),
              uses_total: count,
              uses_left: count,
              granted_at: isoTime,
            }),
          ),
        }),
        policy: { cache: 'private' },
      },
    },
  ),
  api('/api/treasury', 'Treasury: balance, income and spending by category', {
    GET: {
      response: z.object({
        ok,
        as_of: isoTime,
        units: z.string(),
        balance: z.array(z.object({ currency: z.string(), income: cents, spending: cents, balance: cents })),
        income_by_purpose: z.array(
          z.object({ purpose: z.string(), currency: z.string(), amount: cents, payments: count }),
        ),
        spending_by_category: z.array(
          z.object({ category: z.string(), currency: z.string(), amount: cents, authorizations: count }),
        ),
        strategies: z.array(strategySchema),
        provider,
      }),
    },
  }),
  api(
    '/api/treasury/strategies',
    'Treasury strategies and the limits issuing authorizations are checked against',
    { GET: { response: z.object({ ok, strategies: z.array(strategySchema) }) } },
  ),
  api('/api/equity', 'Equity distribution of contributions, top holder and distribution without ids', {
    GET: { response: equitySchema.extend({ ok }) },
  }),
  api('/api/patrons', 'Patrons who chose to be listed, a page at a time, and patron counts', {
    GET: {
      query: z.object(listPageQuery(100, 500)),
      response: z.object({
        ok,
        counts: z.object({ humans: kCount, agents: kCount }),
        listed: z
          .array(
            z.object({
              actor: z.object({ kind: z.enum(['sovereign', 'agent']), ref: z.string(), display: z.string() }),
              since: isoTime,
            }),
          )
          .describe('one page of the listed patrons, longest-standing first'),
        ...listPageLinks,
      }),
    },
  }),
  page('/endow', 'Endow civitas: patronage, covenants and funding evolutions', REVALIDATED),
  page('/pricing', 'Prices of paid capabilities', { alias: true, aliasOf: '/endow', ...REVALIDATED }),
  mutation('/api/stripe/webhook', 'Stripe webhook: signature verified, each event applied once by event id', {
    rate: 'read',
    provider: 'payments',
    POST: {
      ...signedCallback,
      body: stripeEvent(
        checkoutSession,
        'checkout.session.completed, .async_payment_succeeded and .async_payment_failed apply; any other type is ignored',
      ),
      response: z.object({
        ok,
        received: z.literal(true),
        duplicate: z.boolean(),
        outcome: z.enum(WEBHOOK_OUTCOMES),
      }),
      policy: { rawBody: true },
    },
  }),
  mutation(
    '/api/stripe/issuing-authorization',
    'Stripe Issuing real-time authorization: approve or decline by treasury strategy limits',
    {
      rate: 'read',
      provider: 'payments',
      POST: {
        ...signedCallback,
        body: stripeEvent(issuingAuthorization, 'issuing_authorization.request'),
        response: z.object({ approved: z.boolean(), reason: z.enum(AUTHORIZATION_REASONS) }),
        policy: { cache: 'no-store', rawBody: true },
      },
    },
  ),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page(
    '/wallet',
    "The treasury's wallet for people: balance, strategy limits and the k-anonymous equity distribution",
    REVALIDATED,
  ),
];
