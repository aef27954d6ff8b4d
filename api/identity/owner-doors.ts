/**
 * The owner's doors: email, feed tokens, callsign visibility, and data requests (filed by the owner,
 * processed by a steward).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';
import type { RouteRequest } from '../route.ts';
import { sessionOf, type SignedIn } from '../plugins/session.ts';
import type { EMAIL_STATUSES } from '../../shared/identity/contract.ts';
import { removeEmail, requestEmail, setCallsignVisibility, verifyEmail } from './settings.ts';
import { ownerView } from './views.ts';
import { listDataRequests } from './data-requests.ts';
import { withdrawDataRequest } from './data-withdraw.ts';
import { fileDataRequest, processDataRequest } from './data-rights.ts';
import { exportBundle } from './data-held.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { flashFeedToken, revokeFeedToken, rotateFeedToken, takeFeedToken } from './feed-token.ts';

export async function email(request: RouteRequest<'POST /sovereign/email'>, reply: FastifyReply) {
  const me = sessionOf(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/sovereign');
  const ctx = request.server.civitas;
  const action = input.action ?? (input.token ? 'verify' : input.email ? 'set' : undefined);
  if (action === undefined)
    throw new Refusal('invalid_request', {
      issues: [
        {
          path: 'email',
          message:
            'Send the address to set (email), a confirmation code (token), or action=remove to remove it.',
        },
      ],
    });
  if (action === 'rotate_feed_token' || action === 'revoke_feed_token')
    return feedToken(request, reply, me, action, next);
  let result: { ok: true; status: (typeof EMAIL_STATUSES)[number]; receipt_id: string };
  if (action === 'verify') {
    if (!input.token)
      throw new Refusal('invalid_request', {
        issues: [{ path: 'token', message: 'Paste the confirmation code from the message.' }],
      });
    result = await verifyEmail(ctx, me, input.token);
  } else if (action === 'set') {
    // The router checked the address (its contract refines `email` when the action is set).
    result = await requestEmail(ctx, me, (input.email ?? '').trim());
  } else {
    result = await removeEmail(ctx, me);
  }
  if (isFormPost(request)) return seeOther(reply, withQuery(next, { email: result.status }));
  return result;
}

/**
 * The due feed's private subscription address, on the same door as the email that due reminders
 * go to: both are how what comes due reaches you. A new token is answered once (JSON), or kept
 * for one showing on /sovereign after a form post; it is never put in a redirect URL.
 */
async function feedToken(
  request: FastifyRequest,
  reply: FastifyReply,
  me: SignedIn,
  action: 'rotate_feed_token' | 'revoke_feed_token',
  next: string,
) {
  const ctx = request.server.civitas;
  if (action === 'revoke_feed_token') {
    await revokeFeedToken(ctx, me);
    if (isFormPost(request)) return seeOther(reply, withQuery(next, { feed: 'off' }));
    return reply.send({ ok: true, status: 'feed_token_revoked' });
  }
  const subscription = await rotateFeedToken(ctx, me);
  if (isFormPost(request)) {
    const flash = await flashFeedToken(ctx, request, subscription.token);
    return seeOther(reply, withQuery(next, { feed: flash ?? 'rotated' }));
  }
  return reply.send({
    ok: true,
    status: 'feed_token_rotated',
    subscription,
    hint: 'Keep these addresses private: anyone holding one reads what comes due for you. They are shown this once; rotating makes new ones and the old ones stop working.',
  });
}

/** `GET /sovereign`, with a freshly made subscription address when `feed` names its one-time flash. */
export async function ownerWithSubscription(request: FastifyRequest) {
  const me = sessionOf(request);
  const ctx = request.server.civitas;
  const view = await ownerView(ctx, me);
  const flash = (request.query as Record<string, unknown> | undefined)?.feed;
  const subscription =
    typeof flash === 'string' && flash.startsWith('fl_') && flash.length <= 64
      ? await takeFeedToken(ctx, request, flash)
      : null;
  return { ...view, due: { ...view.due, subscription } };
}

export async function callsignVisibility(
  request: RouteRequest<'POST /sovereign/callsign-visibility'>,
  reply: FastifyReply,
) {
  const me = sessionOf(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/sovereign');
  const result = await setCallsignVisibility(request.server.civitas, me, input.visible, input.callsign);
  if (isFormPost(request))
    return seeOther(reply, withQuery(next, { callsign: result.callsign_visible ? 'shown' : 'hidden' }));
  return result;
}

export async function dataRequests(request: RouteRequest<'GET /settings/data/request'>, reply: FastifyReply) {
  const me = sessionOf(request);
  const ctx = request.server.civitas;
  const { download } = request.input.query;
  if (download) {
    const bundle = await exportBundle(ctx, me, download);
    reply.header('content-disposition', `attachment; filename="civitas-export-${me.tag}.json"`);
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(bundle, null, 2));
  }
  return { ok: true as const, requests: await listDataRequests(ctx.db, me.sovereignId) };
}

export async function fileRequest(request: RouteRequest<'POST /settings/data/request'>, reply: FastifyReply) {
  const me = sessionOf(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/settings/data');
  if (input.withdraw) {
    const withdrawn = await withdrawDataRequest(request.server.civitas, me, input.withdraw);
    if (isFormPost(request)) return seeOther(reply, withQuery(next, { withdrawn: withdrawn.request.kind }));
    return withdrawn;
  }
  const result = await fileDataRequest(request.server.civitas, me, input.kind!);
  if (isFormPost(request)) return seeOther(reply, withQuery(next, { filed: input.kind! }));
  return result;
}

export async function processRequest(
  request: RouteRequest<'POST /steward/data-requests'>,
  reply: FastifyReply,
) {
  const steward = sessionOf(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/steward/data-requests');
  const result = await processDataRequest(request.server.civitas, steward, input);
  if (isFormPost(request))
    return seeOther(reply, withQuery(next, { processed: result.request.id, receipt: result.receipt_id }));
  return reply.send(result);
}
