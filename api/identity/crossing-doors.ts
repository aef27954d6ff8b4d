/**
 * The doors in and out: crossing (initiate), return with a Sovereign Key, reconcile, sign-out,
 * the theme, and sign-in through the OpenID Connect provider.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';
import type { RouteRequest } from '../route.ts';
import { clearSessionCookie, endSession, sessionOf, startSession } from '../plugins/session.ts';
import { THEME_COOKIE } from '../../shared/theme.ts';
import { createSovereign } from './sovereigns.ts';
import { recordSessionStep, sovereignByKey } from './service.ts';
import { mergeSovereign } from './merge.ts';
import { beginLogin, callbackState, providerConfigured, unconfigured } from './oidc.ts';
import { completeLogin } from './oidc-callback.ts';
import { renderWith } from './http.ts';
import { bodyOf, isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';

export async function initiate(request: RouteRequest<'POST /initiate'>, reply: FastifyReply) {
  const input = request.input.body;
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
  const viewer = { tag: crossed.tag, callsign: input.callsign ?? null, steward: false };
  return renderWith(request, reply, { crossing: result }, viewer);
}

/**
 * The sovereign a submitted Sovereign Key opens (the router has checked the key's form). When it
 * opens none, a form goes back to `page` with `failed=key` (the answer is then `sent`), and a JSON
 * caller is refused.
 */
async function keyHolder(
  request: RouteRequest<'POST /return' | 'POST /reconcile'>,
  reply: FastifyReply,
  page: string,
  hint: string,
) {
  const form = isFormPost(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/sovereign');
  const found = await sovereignByKey(request.server.civitas, input.key);
  if (found) return { found, form, next };
  if (form) return { sent: seeOther(reply, withQuery(page, { failed: 'key', return_to: next })) };
  throw new Refusal(
    'identity_required',
    { issues: [{ path: 'key', message: 'That key does not open any identity.' }] },
    hint,
  );
}

export async function returnWithKey(request: RouteRequest<'POST /return'>, reply: FastifyReply) {
  const opened = await keyHolder(
    request,
    reply,
    '/return',
    'That Sovereign Key does not open any identity. Check it, or cross at /initiate.',
  );
  if (!opened.found) return opened.sent;
  const { found, form, next } = opened;
  const ctx = request.server.civitas;
  await startSession(request, reply, found.id);
  const receipt = await recordSessionStep(ctx, 'identity.sign_in');
  if (form) return seeOther(reply, next);
  return reply.send({
    ok: true,
    tag: found.tag,
    ref: `sovereign:${found.tag}`,
    receipt_id: receipt.id,
    next,
  });
}

/**
 * `/reconcile`: recover an identity with its key into the current session. When the current
 * sovereign signed in through the provider and the key's sovereign has no provider link, the
 * provider identity moves to the key's sovereign: the two are reconciled into the older one —
 * the uniqueness receipt, every act and every session move with it, and the provider-made row is
 * deleted (api/identity/merge.ts), so the person counts once.
 */
export async function reconcile(request: RouteRequest<'POST /reconcile'>, reply: FastifyReply) {
  const current = sessionOf(request);
  const opened = await keyHolder(
    request,
    reply,
    '/reconcile',
    'That Sovereign Key does not open any identity.',
  );
  if (!opened.found) return opened.sent;
  const { found, form, next } = opened;
  const ctx = request.server.civitas;
  let providerMoved = false;
  if (found.id !== current.sovereignId) {
    providerMoved = await ctx.db.transaction(async (tx) => {
      const [from] = await tx.kysely
        .selectFrom('sovereigns')
        .select(['idp_issuer', 'idp_subject'])
        .where('id', '=', current.sovereignId)
        .forUpdate()
        .execute();
      const [to] = await tx.kysely
        .selectFrom('sovereigns')
        .select('idp_subject')
        .where('id', '=', found.id)
        .forUpdate()
        .execute();
      if (!from?.idp_subject || to?.idp_subject) return false;
      // Move everything, leave nothing: the provider-made row is absorbed into the key's sovereign.
      await mergeSovereign(tx, current.sovereignId, found.id);
      return true;
    });
    await startSession(request, reply, found.id);
  }
  const receipt = await recordSessionStep(ctx, 'identity.reconcile');
  if (form) return seeOther(reply, next);
  return reply.send({
    ok: true,
    tag: found.tag,
    ref: `sovereign:${found.tag}`,
    provider_moved: providerMoved,
    receipt_id: receipt.id,
    next,
  });
}

export async function signout(request: RouteRequest<'POST /signout'>, reply: FastifyReply) {
  const next = returnTarget(request.input.body.return_to, '/');
  const ctx = request.server.civitas;
  let receiptId: string | null = null;
  if (request.sovereign) {
    await endSession(ctx, request.sovereign.sessionHash);
    receiptId = (await recordSessionStep(ctx, 'identity.sign_out')).id;
  }
  clearSessionCookie(request, reply);
  if (isFormPost(request)) return seeOther(reply, next);
  return { ok: true as const, signed_out: receiptId !== null, receipt_id: receiptId, next };
}

export async function theme(request: RouteRequest<'POST /theme'>, reply: FastifyReply) {
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/');
  const secure = request.server.civitas.config.origin.startsWith('https:');
  if (input.theme === 'system') {
    reply.clearCookie(THEME_COOKIE, { path: '/', secure, httpOnly: true, sameSite: 'lax' });
  } else {
    reply.setCookie(THEME_COOKIE, input.theme, {
      path: '/',
      secure,
      httpOnly: true,
      sameSite: 'lax',
      maxAge: 365 * 86_400,
    });
  }
  if (isFormPost(request)) return seeOther(reply, next);
  return { ok: true as const, theme: input.theme, next };
}

export async function idpLogin(request: RouteRequest<'POST /auth/idp/login'>, reply: FastifyReply) {
  const form = isFormPost(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/sovereign');
  const ctx = request.server.civitas;
  if (!providerConfigured(ctx)) {
    if (form) return seeOther(reply, withQuery('/return', { idp: 'unconfigured', return_to: next }));
    throw unconfigured();
  }
  const link = input.link === '1' || input.link === 'true';
  if (link && !request.sovereign) throw new Refusal('identity_required', { scope: 'identity:reconcile' });
  const url = await beginLogin(ctx, {
    returnTo: next,
    linkSovereignId: link ? request.sovereign!.sovereignId : undefined,
  });
  if (form) return seeOther(reply, url.href);
  return { ok: true as const, authorization_url: url.href };
}

/** The provider's form_post (or a JSON client's relay of it): the body is read here, not by the router (its contract has `validate: false`). */
export async function idpCallback(request: FastifyRequest, reply: FastifyReply) {
  const ctx = request.server.civitas;
  const json = !isFormPost(request);
  try {
    callbackState(bodyOf(request));
    if (!providerConfigured(ctx)) throw unconfigured();
    const outcome = await completeLogin(ctx, bodyOf(request));
    await startSession(request, reply, outcome.sovereignId);
    if (json) {
      return {
        ok: true as const,
        tag: outcome.tag,
        ref: `sovereign:${outcome.tag}`,
        created: outcome.created,
        linked: outcome.linked,
        governance: outcome.uniquenessVerified,
        next: outcome.returnTo,
      };
    }
    return seeOther(reply, outcome.returnTo);
  } catch (error) {
    if (json || !(error instanceof Refusal)) throw error;
    return seeOther(
      reply,
      withQuery('/return', { idp: error.reason === 'conflict' ? 'already_linked' : 'failed' }),
    );
  }
}
