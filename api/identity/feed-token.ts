/**
 * Personal feed tokens: calendar and feed readers cannot send a session cookie, so a sovereign may
 * subscribe to `/sovereign/due.ics` and `/sovereign/due.xml` with `?token=ft_…` instead. The token
 * is random (32 bytes), shown once when made and stored only as its SHA-256
 * (`sovereigns.due_token_hash`); making a new one replaces the hash, so the old URL stops working
 * at once. It opens those two feeds and nothing else: no session, no scope, no presence.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import type { SignedIn } from '../plugins/session.ts';
import { Sovereign } from './entities.ts';
import { storeRelayFlash, takeRelayFlash } from '../agents/relay-flash.ts';

export const FEED_TOKEN_PATTERN = /^ft_[A-Za-z0-9_-]{43}$/;
/** The flash label a fresh token is kept under for its one showing (the relay-flash store, api/agents/relay-flash.ts). */
const FLASH_LABEL = 'sovereign:due-feed';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface FeedSubscription {
  token: string;
  ics: string;
  atom: string;
}

export function subscriptionUrls(origin: string, token: string): FeedSubscription {
  const query = `?token=${encodeURIComponent(token)}`;
  return { token, ics: `${origin}/sovereign/due.ics${query}`, atom: `${origin}/sovereign/due.xml${query}` };
}

/** Makes (or replaces) this sovereign's feed token; the previous one is dead from now on. */
export async function rotateFeedToken(ctx: AppContext, me: SignedIn): Promise<FeedSubscription> {
  const token = `ft_${randomBytes(32).toString('base64url')}`;
  const updated = await ctx.db
    .em()
    .nativeUpdate(Sovereign, { id: me.sovereignId, erasedAt: null }, { dueTokenHash: hashOf(token) });
  if (updated === 0) throw new Refusal('identity_required');
  return subscriptionUrls(ctx.config.origin, token);
}

/** Turns personal feed subscriptions off: no token opens the feeds any more. */
export async function revokeFeedToken(ctx: AppContext, me: SignedIn): Promise<void> {
  await ctx.db.em().nativeUpdate(Sovereign, { id: me.sovereignId }, { dueTokenHash: null });
}

/**
 * The reader a `token` opens, as a scope-less SignedIn (it carries no session). An unknown,
 * rotated, revoked or malformed token is refused alike: 401, nothing said about which.
 */
export async function feedReader(ctx: AppContext, token: string): Promise<SignedIn> {
  const row = FEED_TOKEN_PATTERN.test(token)
    ? await ctx.db
        .em()
        .findOne(Sovereign, { dueTokenHash: hashOf(token), erasedAt: null }, { fields: ['id', 'tag'] })
    : null;
  if (!row)
    throw new Refusal(
      'identity_required',
      {},
      'This feed token opens nothing: it was rotated or turned off. Make a new subscription address on /sovereign.',
    );
  return { sovereignId: row.id, tag: row.tag, scopes: [], sessionHash: '' };
}

/** Keeps a fresh token for its one showing on /sovereign after a form post (same session only). */
export function flashFeedToken(
  ctx: AppContext,
  request: FastifyRequest,
  token: string,
): Promise<string | null> {
  return storeRelayFlash(ctx, request, FLASH_LABEL, token);
}

export async function takeFeedToken(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
): Promise<FeedSubscription | null> {
  const token = await takeRelayFlash(ctx, request, id, FLASH_LABEL);
  return token ? subscriptionUrls(ctx.config.origin, token) : null;
}

/** Request URLs as logged: the value of any `…token` query parameter is masked (feed, email and relay tokens). */
export function redactUrlTokens(url: string): string {
  return url.replace(/([?&][A-Za-z_]*token=)[^&#]*/gi, '$1[redacted]');
}
