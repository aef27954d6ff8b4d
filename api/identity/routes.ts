import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Refusal } from '../../shared/errors.ts';
import { defineRoute, parseInput, wantsJson } from '../route.ts';
import { cacheControlForCredentialResponse } from '../../shared/security.ts';
import { renderPage } from '../pages.ts';
import { clearSessionCookie, endSession, startSession, type SignedIn } from '../plugins/session.ts';
import { THEME_COOKIE } from '../../site/lib/theme.ts';
import { createSovereign } from './sovereigns.ts';
import { beginReceipt } from './begin-receipt.ts';
import { callsignSchema, keySchema, recordSessionStep, sovereignByKey } from './service.ts';
import { emailSchema, removeEmail, requestEmail, setCallsignVisibility, verifyEmail } from './settings.ts';
import { identityView, ownerView, passport } from './views.ts';
import { listDataRequests } from './data-requests.ts';
import { mergeSovereign } from './merge.ts';
import { dataOverview, exportBundle, fileDataRequest, processDataRequest, stewardQueue } from './data-rights.ts';
import { beginLogin, callbackState, completeLogin, providerConfigured, unconfigured } from './oidc.ts';
import { personalHybrid, renderWith } from './http.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { beginReceiptCard, passportCard } from './cards.ts';
import { dueFeed } from './due.ts';
import { flashFeedToken, revokeFeedToken, rotateFeedToken, takeFeedToken } from './feed-token.ts';

const returnField = { return_to: z.string().max(2048).optional() };

const initiateBody = z.object({ callsign: callsignSchema.optional(), ...returnField });
const returnBody = z.object({ key: keySchema, ...returnField });
const themeBody = z.object({ theme: z.enum(['light', 'dark', 'system']), ...returnField });
const loginBody = z.object({ link: z.enum(['0', '1', 'true', 'false']).optional(), ...returnField });
const emailBody = z.object({
  action: z.enum(['set', 'remove', 'verify', 'rotate_feed_token', 'revoke_feed_token']).optional(),
  email: z.string().max(400).optional(),
  token: z.string().trim().max(200).optional(),
  ...returnField,
});
const visibilityBody = z.object({
  // A form sends a hidden `false` followed by the checkbox's `true` when ticked: the last value wins.
  visible: z.preprocess(
    (v) => (Array.isArray(v) ? v[v.length - 1] : v),
    z.union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])]).transform((v) => v === true || v === 'true' || v === 'on' || v === '1'),
  ),
  callsign: callsignSchema.optional(),
  ...returnField,
});
const dataRequestBody = z.object({ kind: z.enum(['export', 'erasure']), ...returnField });
const dataRequestQuery = z.object({ download: z.string().max(64).optional() });
const processBody = z.object({
  id: z.string().trim().min(1).max(64),
  action: z.enum(['complete', 'decline']),
  note: z.string().trim().max(500).optional().transform((v) => (v ? v : null)),
  ...returnField,
});
const tagQuery = z.object({ tag: z.string().max(16).optional() });

/** The body of a POST as an object (forms and JSON alike); anything else is an empty object. */
const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};

function signedIn(request: FastifyRequest) {
  if (!request.sovereign) throw new Refusal('identity_required');
  return request.sovereign;
}

// -----------------------------------------------------------------------------------------------
// Crossing, return, reconcile, sign-out, theme

async function initiate(request: FastifyRequest, reply: FastifyReply) {
  const input = parseInput(initiateBody, bodyOf(request));
  const next = returnTarget(input.return_to, '/sovereign');
  const ctx = request.server.civitas;
  const crossed = await createSovereign(ctx, { callsign: input.callsign ?? null });
  await startSession(request, reply, crossed.id);
  const result = {
    ok: true as const,
    tag: crossed.tag,
    ref: `sovereign:${crossed.tag}`,
    key: crossed.key,
    receipt_id: crossed.receiptId,
    receipt: `/begin/receipt/${crossed.receiptId}`,
    next,
    hint: 'Save the Sovereign Key now: it is shown this once and is the way back in at /return.',
  };
  if (!isFormPost(request)) return reply.send(result);
  return renderWith(request, reply, { crossing: result });
}

/**
 * The sovereign a submitted Sovereign Key opens. When it opens none, a form goes back to `page`
 * with `failed=key` (the answer is then `sent`), and a JSON caller is refused.
 */
async function keyHolder(request: FastifyRequest, reply: FastifyReply, page: string, hint: string) {
  const form = isFormPost(request);
  const raw = bodyOf(request);
  const next = returnTarget(raw.return_to, '/sovereign');
  const parsed = returnBody.safeParse(raw);
  const found = parsed.success ? await sovereignByKey(request.server.civitas, parsed.data.key) : undefined;
  if (found) return { found, form, next };
  if (form) return { sent: seeOther(reply, withQuery(page, { failed: 'key', return_to: next })) };
  if (!parsed.success) parseInput(returnBody, raw);
  throw new Refusal('identity_required', { issues: [{ path: 'key', message: 'That key does not open any identity.' }] }, hint);
}

async function returnWithKey(request: FastifyRequest, reply: FastifyReply) {
  const opened = await keyHolder(request, reply, '/return', 'That Sovereign Key does not open any identity. Check it, or cross at /initiate.');
  if (!opened.found) return opened.sent;
  const { found, form, next } = opened;
  const ctx = request.server.civitas;
  await startSession(request, reply, found.id);
  const receipt = await recordSessionStep(ctx, 'identity.sign_in');
  if (form) return seeOther(reply, next);
  return reply.send({ ok: true, tag: found.tag, ref: `sovereign:${found.tag}`, receipt_id: receipt.id, next });
}

/**
 * `/reconcile`: recover an identity with its key into the current session. When the current
 * sovereign signed in through the provider and the key's sovereign has no provider link, the
 * provider identity moves to the key's sovereign: the two are reconciled into the older one —
 * the uniqueness receipt, every act and every session move with it, and the provider-made row is
 * deleted (api/identity/merge.ts), so the person counts once.
 */
async function reconcile(request: FastifyRequest, reply: FastifyReply) {
  const current = signedIn(request);
  const opened = await keyHolder(request, reply, '/reconcile', 'That Sovereign Key does not open any identity.');
  if (!opened.found) return opened.sent;
  const { found, form, next } = opened;
  const ctx = request.server.civitas;
  let providerMoved = false;
  if (found.id !== current.sovereignId) {
    providerMoved = await ctx.db.transaction(async (tx) => {
      const [from] = await tx.query<{ idp_issuer: string | null; idp_subject: string | null }>('select idp_issuer, idp_subject from sovereigns where id = $1 for update', [current.sovereignId]);
      const [to] = await tx.query<{ idp_subject: string | null }>('select idp_subject from sovereigns where id = $1 for update', [found.id]);
      if (!from?.idp_subject || to?.idp_subject) return false;
      // Move everything, leave nothing: the provider-made row is absorbed into the key's sovereign.
      await mergeSovereign(tx, current.sovereignId, found.id);
      return true;
    });
    await startSession(request, reply, found.id);
  }
  const receipt = await recordSessionStep(ctx, 'identity.reconcile');
  if (form) return seeOther(reply, next);
  return reply.send({ ok: true, tag: found.tag, ref: `sovereign:${found.tag}`, provider_moved: providerMoved, receipt_id: receipt.id, next });
}

async function signout(request: FastifyRequest, reply: FastifyReply) {
  const next = returnTarget(bodyOf(request).return_to, '/');
  const ctx = request.server.civitas;
  let receiptId: string | null = null;
  if (request.sovereign) {
    await endSession(ctx, request.sovereign.sessionHash);
    receiptId = (await recordSessionStep(ctx, 'identity.sign_out')).id;
  }
  clearSessionCookie(request, reply);
  if (isFormPost(request)) return seeOther(reply, next);
  return reply.send({ ok: true, signed_out: receiptId !== null, receipt_id: receiptId, next });
}

async function theme(request: FastifyRequest, reply: FastifyReply) {
  const input = parseInput(themeBody, bodyOf(request));
  const next = returnTarget(input.return_to, '/');
  const secure = request.server.civitas.config.origin.startsWith('https:');
  reply.header('cache-control', cacheControlForCredentialResponse());
  if (input.theme === 'system') {
    reply.clearCookie(THEME_COOKIE, { path: '/', secure, httpOnly: true, sameSite: 'lax' });
  } else {
    reply.setCookie(THEME_COOKIE, input.theme, { path: '/', secure, httpOnly: true, sameSite: 'lax', maxAge: 365 * 86_400 });
  }
  if (isFormPost(request)) return seeOther(reply, next);
  return reply.send({ ok: true, theme: input.theme, next });
}

// -----------------------------------------------------------------------------------------------
// OpenID Connect

async function idpLogin(request: FastifyRequest, reply: FastifyReply) {
  const form = isFormPost(request);
  const input = parseInput(loginBody, bodyOf(request));
  const next = returnTarget(input.return_to, '/sovereign');
  const ctx = request.server.civitas;
  if (!providerConfigured(ctx)) {
    if (form) return seeOther(reply, withQuery('/return', { idp: 'unconfigured', return_to: next }));
    throw unconfigured();
  }
  const link = input.link === '1' || input.link === 'true';
  if (link && !request.sovereign) throw new Refusal('identity_required', { scope: 'identity:reconcile' });
  const url = await beginLogin(ctx, { returnTo: next, linkSovereignId: link ? request.sovereign!.sovereignId : undefined });
  reply.header('cache-control', cacheControlForCredentialResponse());
  if (form) return seeOther(reply, url.href);
  return reply.send({ ok: true, authorization_url: url.href });
}

async function idpCallback(request: FastifyRequest, reply: FastifyReply) {
  const ctx = request.server.civitas;
  const json = wantsJson(request);
  try {
    callbackState(bodyOf(request));
    if (!providerConfigured(ctx)) throw unconfigured();
    const outcome = await completeLogin(ctx, bodyOf(request));
    await startSession(request, reply, outcome.sovereignId);
    if (json) {
      return reply.send({ ok: true, tag: outcome.tag, ref: `sovereign:${outcome.tag}`, created: outcome.created, linked: outcome.linked, governance: outcome.uniquenessVerified, next: outcome.returnTo });
    }
    return seeOther(reply, outcome.returnTo);
  } catch (error) {
    if (json || !(error instanceof Refusal)) throw error;
    return seeOther(reply, withQuery('/return', { idp: error.reason === 'conflict' ? 'already_linked' : 'failed' }));
  }
}

// -----------------------------------------------------------------------------------------------
// Owner settings

async function email(request: FastifyRequest, reply: FastifyReply) {
  const me = signedIn(request);
  const input = parseInput(emailBody, bodyOf(request));
  const next = returnTarget(input.return_to, '/sovereign');
  const ctx = request.server.civitas;
  const action = input.action ?? (input.token ? 'verify' : input.email ? 'set' : 'remove');
  if (action === 'rotate_feed_token' || action === 'revoke_feed_token') return feedToken(request, reply, me, action, next);
  let result: { ok: true; status: string; receipt_id: string };
  if (action === 'verify') {
    if (!input.token) throw new Refusal('invalid_request', { issues: [{ path: 'token', message: 'Paste the confirmation code from the message.' }] });
    result = await verifyEmail(ctx, me, input.token);
  } else if (action === 'set') {
    const address = parseInput(z.object({ email: emailSchema }), { email: input.email ?? '' }).email;
    result = await requestEmail(ctx, me, address);
  } else {
    result = await removeEmail(ctx, me);
  }
  if (isFormPost(request)) return seeOther(reply, withQuery(next, { email: result.status }));
  return reply.send(result);
}

/**
 * The due feed's private subscription address, on the same door as the email that due reminders
 * go to: both are how what comes due reaches you. A new token is answered once (JSON), or kept
 * for one showing on /sovereign after a form post; it is never put in a redirect URL.
 */
async function feedToken(request: FastifyRequest, reply: FastifyReply, me: SignedIn, action: 'rotate_feed_token' | 'revoke_feed_token', next: string) {
  const ctx = request.server.civitas;
  reply.header('cache-control', cacheControlForCredentialResponse());
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
async function ownerWithSubscription(request: FastifyRequest) {
  const me = signedIn(request);
  const ctx = request.server.civitas;
  const view = await ownerView(ctx, me);
  const flash = (request.query as Record<string, unknown> | undefined)?.feed;
  const subscription = typeof flash === 'string' && flash.startsWith('fl_') && flash.length <= 64 ? await takeFeedToken(ctx, request, flash) : null;
  return { ...view, due: { ...view.due, subscription } };
}

async function callsignVisibility(request: FastifyRequest, reply: FastifyReply) {
  const me = signedIn(request);
  const input = parseInput(visibilityBody, bodyOf(request));
  const next = returnTarget(input.return_to, '/sovereign');
  const result = await setCallsignVisibility(request.server.civitas, me, input.visible, input.callsign);
  if (isFormPost(request)) return seeOther(reply, withQuery(next, { callsign: result.callsign_visible ? 'shown' : 'hidden' }));
  return reply.send(result);
}

// -----------------------------------------------------------------------------------------------
// Data rights

async function dataRequests(request: FastifyRequest, reply: FastifyReply) {
  const me = signedIn(request);
  const ctx = request.server.civitas;
  reply.header('cache-control', 'private, no-store');
  const { download } = parseInput(dataRequestQuery, request.query);
  if (download) {
    const bundle = await exportBundle(ctx, me, download);
    reply.header('content-disposition', `attachment; filename="civitas-export-${me.tag}.json"`);
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(bundle, null, 2));
  }
  return { ok: true, requests: await listDataRequests(ctx.db, me.sovereignId) };
}

async function fileRequest(request: FastifyRequest, reply: FastifyReply) {
  const me = signedIn(request);
  const input = parseInput(dataRequestBody, bodyOf(request));
  const next = returnTarget(input.return_to, '/settings/data');
  const result = await fileDataRequest(request.server.civitas, me, input.kind);
  if (isFormPost(request)) return seeOther(reply, withQuery(next, { filed: input.kind }));
  return reply.send(result);
}

async function processRequest(request: FastifyRequest, reply: FastifyReply) {
  const steward = signedIn(request);
  const input = parseInput(processBody, bodyOf(request));
  const next = returnTarget(input.return_to, '/steward/data-requests');
  const result = await processDataRequest(request.server.civitas, steward, input);
  if (isFormPost(request)) return seeOther(reply, withQuery(next, { processed: result.request.id }));
  return reply.send(result);
}

// -----------------------------------------------------------------------------------------------

async function passportHybrid(request: FastifyRequest, reply: FastifyReply) {
  const { tag } = parseInput(tagQuery, request.query);
  reply.header('cache-control', 'public, max-age=60');
  if (!wantsJson(request)) return renderPage(request, reply);
  return passport(request.server.civitas, tag);
}

async function beginReceiptHybrid(request: FastifyRequest, reply: FastifyReply) {
  const { token } = request.params as { token: string };
  if (!wantsJson(request)) return renderPage(request, reply);
  return beginReceipt(request.server.civitas, token);
}

export const identityRoutes = [
  defineRoute('POST /initiate', { handler: initiate, credentialDoor: true }),
  defineRoute('POST /return', { handler: returnWithKey, credentialDoor: true }),
  defineRoute('POST /reconcile', { handler: reconcile, credentialDoor: true }),
  defineRoute('POST /signout', { handler: signout, credentialDoor: true }),
  defineRoute('POST /theme', { handler: theme, credentialDoor: true }),
  defineRoute('POST /auth/idp/login', { handler: idpLogin, credentialDoor: true }),
  defineRoute('POST /auth/idp/callback', { handler: idpCallback }),
  defineRoute('GET /identity', {
    async handler(request, reply) {
      reply.header('cache-control', 'private, no-store');
      if (!wantsJson(request)) return renderPage(request, reply);
      return identityView(request.server.civitas, request.sovereign);
    },
  }),
  defineRoute('GET /sovereign', { handler: personalHybrid(ownerWithSubscription) }),
  defineRoute('GET /passport', { handler: passportHybrid }),
  defineRoute('GET /passport/card.svg', { handler: passportCard }),
  defineRoute('GET /begin/receipt/{token}', { handler: beginReceiptHybrid }),
  defineRoute('GET /begin/receipt/{token}/card.svg', { handler: beginReceiptCard }),
  defineRoute('POST /sovereign/email', { handler: email }),
  defineRoute('POST /sovereign/callsign-visibility', { handler: callsignVisibility }),
  defineRoute('GET /settings/data', { handler: personalHybrid((request) => dataOverview(request.server.civitas, signedIn(request))) }),
  defineRoute('GET /settings/data/request', { handler: dataRequests }),
  defineRoute('POST /settings/data/request', { handler: fileRequest }),
  defineRoute('GET /steward/data-requests', { handler: personalHybrid((request) => stewardQueue(request.server.civitas)) }),
  defineRoute('POST /steward/data-requests', { handler: processRequest }),
  defineRoute('GET /sovereign/due.ics', { handler: dueFeed('ics') }),
  defineRoute('GET /sovereign/due.xml', { handler: dueFeed('atom') }),
];

