import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, mutation, page } = family('treasury');

/** Treasury: paid capabilities through Stripe, the Oracle, entitlements and the treasury itself. */
export const TREASURY_ROUTES: RouteShape[] = [
  mutation(
    '/api/checkout',
    'Start a Stripe checkout for a paid capability; answers with the checkout address, never charges by itself',
    { identity: 'holder', unknownHandle: true, provider: 'payments' },
  ),
  mutation('/api/portal', 'Open the Stripe billing portal for your subscriptions', {
    scope: 'billing:manage',
    provider: 'payments',
    refuses: { POST: ['not_found'] },
  }),
  mutation('/api/patronage', 'Become a patron (recurring support) through checkout', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
  }),
  mutation('/api/covenant', 'Enter a covenant: a funded commitment toward a named capability', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
  }),
  mutation('/api/fund-evolution', 'Fund a proposed evolution of the service', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
  }),
  mutation('/api/inscribe', 'Buy an inscription: a paid, permanent entry outside the 500-row window', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
  }),
  api('/api/inscriptions', 'Inscriptions: paid permanent entries'),
  api(
    '/api/oracle',
    'Oracle: GET describes the paid deep report; POST without entitlement answers 402 with a quote, never charges',
    { methods: ['GET', 'POST'], identity: 'proof', identityOn: ['POST'], unknownHandle: true },
  ),
  mutation('/api/oracle/buy', 'Buy an Oracle report through checkout (explicit purchase, never automatic)', {
    identity: 'holder',
    unknownHandle: true,
    provider: 'payments',
  }),
  api('/api/oracle/session', 'The state of an Oracle purchase or report session', {
    identity: 'holder',
    unknownHandle: true,
    refuses: { GET: ['not_found'] },
  }),
  api('/api/oracle/usage', 'Oracle usage against your entitlement', {
    identity: 'holder',
    unknownHandle: true,
  }),
  page('/oracle', 'The Oracle: what the paid deep report covers and its price'),
  page('/oracle/mine', 'Your Oracle reports', { identity: 'session' }),
  api(
    '/api/cost-oracle',
    'What a given public actor would pay for an Oracle report (a quote, not a purchase)',
    { publicActor: 'required' },
  ),
  api(
    '/api/entitlements',
    'Entitlements of the caller: paid capabilities held (separate from session and handle)',
    { identity: 'session' },
  ),
  api('/api/treasury', 'Treasury: balance, income and spending by category'),
  api(
    '/api/treasury/strategies',
    'Treasury strategies and the limits issuing authorizations are checked against',
  ),
  api('/api/equity', 'Equity distribution of contributions, top holder and distribution without ids'),
  api('/api/patrons', 'Patrons who chose to be listed, and patron counts'),
  page('/endow', 'Endow civitas: patronage, covenants and funding evolutions'),
  page('/pricing', 'Prices of paid capabilities', { alias: true, aliasOf: '/endow' }),
  mutation('/api/stripe/webhook', 'Stripe webhook: signature verified, each event applied once by event id', {
    rate: 'read',
    provider: 'payments',
  }),
  mutation(
    '/api/stripe/issuing-authorization',
    'Stripe Issuing real-time authorization: approve or decline by treasury strategy limits',
    { rate: 'read', provider: 'payments' },
  ),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page(
    '/wallet',
    "The treasury's wallet for people: balance, strategy limits and the k-anonymous equity distribution",
  ),
];
