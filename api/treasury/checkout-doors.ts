import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteRequest } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { CAPABILITY_PRICES } from '../../shared/treasury/quote.ts';
import { isFormPost, returnTarget } from '../http.ts';
import { currentQuote, requireHolder, startCheckout, type Purpose } from './service.ts';
import { speakerOfRequest } from '../agents/speaker.ts';

/** The six checkout doors of the treasury: one handler shape, bound per purpose in routes.ts. */

/** "12.50" → 1250 cents, within the same bounds as `amount`; undefined when not given. */
function majorToCents(major: string | undefined): number | undefined {
  if (major === undefined) return undefined;
  const cents = Math.round(Number(major.replace(',', '.')) * 100);
  const { patronage_minimum: min, maximum: max } = CAPABILITY_PRICES;
  if (cents < min || cents > max) {
    throw new Refusal('invalid_request', {
      issues: [
        {
          path: 'amount_major',
          message: `Choose an amount between ${(min / 100).toFixed(2)} and ${(max / 100).toFixed(2)}.`,
        },
      ],
    });
  }
  return cents;
}

type CheckoutKey =
  | 'POST /api/checkout'
  | 'POST /api/oracle/buy'
  | 'POST /api/patronage'
  | 'POST /api/covenant'
  | 'POST /api/fund-evolution'
  | 'POST /api/inscribe';

/**
 * Who before what (test/api/doors/who-before-what.test.ts): the checkout bodies are strict, so a
 * caller with no session who names no agent handle learns it must sign in (401) before the
 * contract judges the body (400).
 */
export function anonymousWithoutHandle(request: FastifyRequest) {
  const body = request.body as { agent?: unknown } | null | undefined;
  const named =
    typeof body === 'object' && body !== null && typeof body.agent === 'string' && body.agent !== '';
  if (!request.sovereign && !named) requireHolder(undefined);
}

/** A checkout door: validate, identify the holder, then open a checkout (503 without Stripe). Form posts go on to the hosted checkout. */
export function checkoutDoor(purpose: Purpose | 'any', fallbackPage: string) {
  return async (request: RouteRequest<CheckoutKey>, reply: FastifyReply) => {
    const input = request.input.body;
    const chosen: Purpose = purpose === 'any' ? (input.capability ?? 'oracle') : purpose;
    const form = isFormPost(request);
    if (form) returnTarget(input.return_to, fallbackPage); // refuses off-origin targets early
    if (chosen === 'inscription' && !input.text)
      throw new Refusal('invalid_request', {
        issues: [{ path: 'text', message: 'An inscription needs its text (at most 280 characters).' }],
      });
    if ((chosen === 'covenant' || chosen === 'fund_evolution') && !input.name) {
      throw new Refusal('invalid_request', {
        issues: [
          {
            path: 'name',
            message:
              chosen === 'covenant'
                ? 'Name the capability the covenant funds.'
                : 'Name the evolution you fund.',
          },
        ],
      });
    }
    const holder = requireHolder(await speakerOfRequest(request, input.agent, input.continuity));
    const quote = currentQuote(request.server.civitas);
    const uses = chosen === 'oracle' ? (input.uses ?? 1) : 0;
    const amount =
      chosen === 'oracle'
        ? quote.price * uses
        : chosen === 'inscription'
          ? CAPABILITY_PRICES.inscription
          : (input.amount ?? majorToCents(input.amount_major) ?? 500);
    const result = await startCheckout(request.server.civitas, {
      purpose: chosen,
      holder,
      amountCents: amount,
      uses,
      detail: {
        ...(input.text ? { text: input.text } : {}),
        ...(input.name ? { name: input.name } : {}),
        ...(input.listed ? { listed: true } : {}),
      },
      returnPath: chosen === 'oracle' ? '/oracle/mine' : '/endow',
    });
    // The hosted checkout is the provider's page: a form post continues there (the URL comes from
    // the provider, never from the form). Nothing is charged until the person completes it.
    if (form) return reply.code(303).header('location', result.checkout_url).send();
    return result;
  };
}
