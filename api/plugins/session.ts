import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal } from '../../shared/errors.ts';
import type { Scope } from '../../shared/registry/types.ts';
import type { AppContext } from '../context.ts';
import { scopesFor } from '../../shared/scopes.ts';
import { cacheControlForCredentialResponse, safeReturnTarget } from '../../shared/security.ts';
import { wantsJson } from '../http.ts';
import type { Row } from '../db/kysely.ts';
import type { Counts } from '../db/rows.ts';

/** A browser navigation: GET/HEAD whose Accept names text/html before any JSON (asking marks the answer as negotiated). */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return !wantsJson(request) && (request.headers.accept ?? '').includes('text/html');
}

/** DESIGN.md section 2: 30-day sliding lifetime. */
export const SESSION_LIFETIME_MS = 30 * 86_400_000;
export const SESSION_COOKIE = 'civitas_session';
/** Over HTTPS the cookie takes the `__Host-` prefix (no Domain, Path=/, Secure). */
export const SECURE_SESSION_COOKIE = '__Host-civitas_session';
/**
 * A hint for the page's own script, not a credential: "1" while a session was started in this
 * browser, readable by JavaScript so a prerendered page asks GET /identity only when someone may be
 * signed in (shared/site-scripts.ts). Nothing on the server reads it.
 */
export const SIGNED_IN_HINT_COOKIE = 'civitas_signed_in';

export interface SignedIn {
  sovereignId: string;
  tag: string;
  scopes: Scope[];
  sessionHash: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    sovereign?: SignedIn;
  }
  interface FastifyContextConfig {
    scope?: Scope;
  }
}

export const hashSession = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

function cookieName(ctx: AppContext): string {
  return ctx.config.origin.startsWith('https:') ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * How often a used session is written: its sliding expiry and its sovereign's `last_seen_at` move
 * at most once per this interval per session (issue 21: an authenticated request must not write on
 * every request), which is well inside presence's 15-minute window, so a person active with an
 * existing session is counted as present.
 */
export const SESSION_TOUCH_MS = 5 * 60_000;

/** A live session's sovereign, and how many sovereigns hold its tag. */
type LiveSession = Pick<Row<'sessions'>, 'sovereign_id'> &
  Pick<Row<'sovereigns'>, 'tag' | 'uniqueness_verified_at'> &
  Counts<'tag_holders'>;

/**
 * Looks up a session by its cookie value and returns the signed-in sovereign. One statement: when
 * the session was last used more than SESSION_TOUCH_MS ago, it also slides the expiry and moves
 * the sovereign's `last_seen_at` (the only writes, so most authenticated requests write nothing).
 */
export async function resolveSession(
  ctx: AppContext,
  value: string | undefined,
): Promise<SignedIn | undefined> {
  if (!value || value.length > 200) return undefined;
  const idHash = hashSession(value);
  const now = ctx.clock.now();
  const [row] = await ctx.db.query<LiveSession>(
    `with live as (
       select s.id as sovereign_id, s.tag, s.uniqueness_verified_at, sessions.last_used_at
         from sessions join sovereigns s on s.id = sessions.sovereign_id
        where sessions.id_hash = $1 and sessions.revoked_at is null and sessions.expires_at > $2
          and s.erased_at is null),
     touched as (
       update sessions set last_used_at = $2, expires_at = $3
        where id_hash = $1 and exists (select 1 from live where live.last_used_at <= $4)
       returning sovereign_id),
     seen as (
       update sovereigns set last_seen_at = greatest(last_seen_at, $2)
        where id in (select sovereign_id from touched))
     select live.sovereign_id, live.tag, live.uniqueness_verified_at,
            (select count(*) from sovereigns o where o.tag = live.tag) as tag_holders from live`,
    [
      idHash,
      now.toISOString(),
      new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
      new Date(now.getTime() - SESSION_TOUCH_MS).toISOString(),
    ],
  );
  if (!row) return undefined;
  const scopes = scopesFor(
    {
      id: row.sovereign_id,
      tag: row.tag,
      uniquenessVerified: row.uniqueness_verified_at !== null,
      tagUnique: row.tag_holders === 1,
    },
    ctx.config,
  );
  return { sovereignId: row.sovereign_id, tag: row.tag, scopes, sessionHash: idHash };
}

/**
 * Mints a new session for a sovereign and sets the cookie (HttpOnly, SameSite=Lax, Secure and
 * __Host- over HTTPS). The security-headers plugin makes every cookie-setting response private,
 * no-store. Callers revoke the previous session first when rotating on sign-in.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  sovereignId: string,
): Promise<void> {
  const ctx = request.server.civitas;
  if (request.sovereign) await endSession(ctx, request.sovereign.sessionHash);
  const value = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.query(
    `insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)`,
    [
      hashSession(value),
      sovereignId,
      now.toISOString(),
      new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    ],
  );
  await ctx.db.query('update sovereigns set last_seen_at = $2 where id = $1', [
    sovereignId,
    now.toISOString(),
  ]);
  const secure = ctx.config.origin.startsWith('https:');
  reply.setCookie(cookieName(ctx), value, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_LIFETIME_MS / 1000,
  });
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', {
    httpOnly: false,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_LIFETIME_MS / 1000,
  });
  // set_cookie_replay: said here too, since @fastify/cookie writes Set-Cookie after other onSend hooks run.
  reply.header('cache-control', cacheControlForCredentialResponse());
}

export async function endSession(ctx: AppContext, sessionHash: string): Promise<void> {
  await ctx.db.query('update sessions set revoked_at = $2 where id_hash = $1 and revoked_at is null', [
    sessionHash,
    ctx.clock.now().toISOString(),
  ]);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  const ctx = request.server.civitas;
  reply.clearCookie(cookieName(ctx), {
    path: '/',
    secure: ctx.config.origin.startsWith('https:'),
    httpOnly: true,
    sameSite: 'lax',
  });
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, {
    path: '/',
    secure: ctx.config.origin.startsWith('https:'),
    sameSite: 'lax',
  });
  reply.header('cache-control', cacheControlForCredentialResponse());
}

/**
 * Reads the session on every request (before rate limiting, so a signed-in person is their own
 * actor) and enforces the registry's scope on scoped routes: 401 identity_required without a
 * session, 403 scope_required naming the scope without it. Only the server-side session decides;
 * nothing in the request body or query can name a different actor. Both hooks are synchronous
 * until there is work to do (a session cookie, a scoped route): every request passes here.
 */
async function sessions(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const ctx = request.server.civitas;
    const value = request.cookies?.[cookieName(ctx)];
    if (!value) return done();
    resolveSession(ctx, value).then((signedIn) => {
      if (signedIn) {
        request.sovereign = signedIn;
        request.actorKey = `sovereign:${signedIn.sessionHash.slice(0, 16)}`;
      }
      done();
    }, done);
  });
  app.addHook('preHandler', (request, reply, done) => {
    const scope = request.routeOptions.config?.scope;
    if (!scope) return done();
    let sent: boolean;
    try {
      sent = enforceScope(request, reply, scope);
    } catch (refusal) {
      return done(refusal as Error);
    }
    // A redirect already answered: the request ends here, so `done` is not called.
    if (!sent) done();
  });
}

/** 401 without a session (a browser is sent to sign in instead: true, answered), 403 without the scope. */
function enforceScope(request: FastifyRequest, reply: FastifyReply, scope: Scope): boolean {
  if (!request.sovereign) {
    // A person's browser asking for a page is sent to sign in and brought back; API clients
    // (and anything that does not ask for HTML first) get the 401 in the error shape.
    if (wantsPage(request)) {
      const back = safeReturnTarget(request.url) ?? '/sovereign';
      reply
        .code(303)
        .header('location', `/return?return_to=${encodeURIComponent(back)}`)
        .header('cache-control', 'no-store')
        .send();
      return true;
    }
    throw new Refusal('identity_required', { scope });
  }
  if (!request.sovereign.scopes.includes(scope)) throw new Refusal('scope_required', { scope });
  return false;
}

/**
 * Who acts on a scoped route: its entry's scope was enforced above (401 without a session, 403
 * without the scope) before any handler ran, so a handler reads the session without checking it
 * again (test/structure/route-policy.test.ts). On a route whose entry declares no scope there is
 * nothing to read: that is a wiring error, answered 500, never a refusal.
 */
export function sessionOf(request: FastifyRequest): SignedIn {
  const scope = request.routeOptions.config?.scope;
  if (!scope || !request.sovereign)
    throw new Error(
      `sessionOf: ${request.method} ${request.routeOptions.url ?? request.url} declares no scope`,
    );
  return request.sovereign;
}

export default fp(sessions, { name: 'civitas-sessions', dependencies: ['@fastify/cookie'] });
