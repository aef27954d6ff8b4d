import type { FastifyRequest } from 'fastify';
import { defineRoute } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { verifyStripeSignature, SIGNATURE_FAILURE_WORDS } from '../../shared/treasury/stripe-signature.ts';
import { isFormPost, returnTarget } from '../http.ts';
import { treasuryConfig } from './config.ts';
import { paymentsOff } from './stripe-client.ts';
import { applyStripeEvent, asStripeEvent } from './webhooks.ts';
import { currentQuote, openBillingPortal, oracleOffer, requireHolder } from './service.ts';
import { anonymousWithoutHandle, checkoutDoor } from './checkout-doors.ts';
import { decideAuthorization } from './authorizations.ts';
import {
  entitlementsOf,
  equityView,
  inscriptionsView,
  sessionOf,
  strategiesView,
  treasuryView,
  usageOf,
} from './views.ts';
import { patronsView } from './patrons.ts';
import { runOracle } from './oracle.ts';
import { speakerOfRequest } from '../agents/speaker.ts';

/**
 * Verifies a Stripe-signed callback and parses its event. The request's own shape comes first (a
 * JSON event with id, type and data.object, and a Stripe-Signature header): a malformed callback
 * is a 400 whatever the configuration; only a well-formed one meets the 503 of a missing secret,
 * then the signature check (400 when it fails).
 */
function verifiedEvent(request: FastifyRequest) {
  const { config, clock } = request.server.civitas;
  const raw = request.rawBody ?? Buffer.alloc(0);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new Refusal('invalid_request', { issues: [{ path: '(body)', message: 'The event is not JSON.' }] });
  }
  const event = asStripeEvent(parsed);
  if (!event)
    throw new Refusal('invalid_request', {
      issues: [{ path: '(body)', message: 'The event needs id, type and data.object.' }],
    });
  const header = request.headers['stripe-signature'];
  if (typeof header !== 'string' || !header)
    throw new Refusal('invalid_request', {
      issues: [{ path: 'Stripe-Signature', message: SIGNATURE_FAILURE_WORDS.missing_header }],
    });
  const cfg = treasuryConfig(config);
  if (!cfg.webhookSecret) throw paymentsOff('treasury');
  const check = verifyStripeSignature({
    header,
    rawBody: raw,
    secret: cfg.webhookSecret,
    nowSeconds: Math.floor(clock.now().getTime() / 1000),
  });
  if (!check.ok)
    throw new Refusal('invalid_request', {
      issues: [{ path: 'Stripe-Signature', message: SIGNATURE_FAILURE_WORDS[check.failure] }],
    });
  return event;
}

/** The holder a personal read is for: the named agent, else the signed-in sovereign (401 without either). */
async function callerHolder(request: FastifyRequest, agent: string | undefined) {
  return requireHolder(await speakerOfRequest(request, agent));
}

export const treasuryRoutes = [
  defineRoute('POST /api/stripe/webhook', {
    async handler(request) {
      return applyStripeEvent(request.server.civitas, verifiedEvent(request));
    },
  }),
  defineRoute('POST /api/stripe/issuing-authorization', {
    async handler(request) {
      const event = verifiedEvent(request);
      const decision = await decideAuthorization(request.server.civitas, event);
      return { approved: decision.approved, reason: decision.reason };
    },
  }),

  defineRoute('GET /api/entitlements', {
    async handler(request) {
      if (!request.sovereign) throw new Refusal('identity_required');
      const holder = requireHolder(await speakerOfRequest(request));
      return { ok: true as const, entitlements: await entitlementsOf(request.server.civitas, holder) };
    },
  }),

  defineRoute('GET /api/oracle', {
    async handler(request) {
      return oracleOffer(request.server.civitas);
    },
  }),
  defineRoute('POST /api/oracle', {
    async handler(request, reply) {
      const input = request.input.body;
      const holder = await speakerOfRequest(request, input.agent, input.continuity);
      try {
        const result = await runOracle(request.server.civitas, holder);
        if (isFormPost(request))
          return reply.code(303).header('location', `/oracle/mine#${result.report_id}`).send();
        return result;
      } catch (error) {
        // 402: the quote body at the top level and under `quote`; nothing was charged.
        if (error instanceof Refusal && error.reason === 'quote')
          throw new Refusal('quote', { ...(error.extra.quote as object), quote: error.extra.quote });
        throw error;
      }
    },
  }),
  defineRoute('POST /api/oracle/buy', {
    preHandler: anonymousWithoutHandle,
    handler: checkoutDoor('oracle', '/oracle'),
  }),
  defineRoute('GET /api/oracle/session', {
    async handler(request) {
      const { id, agent } = request.input.query;
      const holder = await callerHolder(request, agent);
      return { ok: true as const, sessions: await sessionOf(request.server.civitas, holder, id) };
    },
  }),
  defineRoute('GET /api/oracle/usage', {
    async handler(request) {
      const holder = await callerHolder(request, request.input.query.agent);
      return usageOf(request.server.civitas, holder);
    },
  }),
  defineRoute('GET /api/cost-oracle', {
    async handler(request) {
      const { actor } = request.input.query;
      return {
        ok: true as const,
        actor,
        quote: currentQuote(request.server.civitas),
        note: 'Prices are the same for every actor; holdings are never disclosed here. A quote is not a purchase.',
      };
    },
  }),

  defineRoute('POST /api/checkout', {
    preHandler: anonymousWithoutHandle,
    handler: checkoutDoor('any', '/endow'),
  }),
  defineRoute('POST /api/patronage', {
    preHandler: anonymousWithoutHandle,
    handler: checkoutDoor('patronage', '/endow'),
  }),
  defineRoute('POST /api/covenant', {
    preHandler: anonymousWithoutHandle,
    handler: checkoutDoor('covenant', '/endow'),
  }),
  defineRoute('POST /api/fund-evolution', {
    preHandler: anonymousWithoutHandle,
    handler: checkoutDoor('fund_evolution', '/endow'),
  }),
  defineRoute('POST /api/inscribe', {
    preHandler: anonymousWithoutHandle,
    handler: checkoutDoor('inscription', '/endow'),
  }),
  defineRoute('GET /api/inscriptions', {
    handler: async (request) => inscriptionsView(request.server.civitas, request.input.query),
  }),

  defineRoute('POST /api/portal', {
    async handler(request, reply) {
      const back = returnTarget(request.input.body.return_to, '/wallet');
      const url = await openBillingPortal(request.server.civitas, request.sovereign!.sovereignId, back);
      if (isFormPost(request)) return reply.code(303).header('location', url).send();
      return { ok: true as const, portal_url: url };
    },
  }),

  defineRoute('GET /api/treasury', { handler: async (request) => treasuryView(request.server.civitas) }),
  defineRoute('GET /api/treasury/strategies', {
    handler: async (request) => ({
      ok: true as const,
      strategies: await strategiesView(request.server.civitas),
    }),
  }),
  defineRoute('GET /api/equity', {
    handler: async (request) => ({ ok: true as const, ...(await equityView(request.server.civitas)) }),
  }),
  defineRoute('GET /api/patrons', {
    handler: async (request) => patronsView(request.server.civitas, request.input.query),
  }),
];
