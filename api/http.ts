/**
 * Browser forms and navigations, in one place: how a form post is recognised, where it goes next
 * (303 see-other, post/redirect/get), and the short-lived flash that carries a failed form's error
 * and typed values back to the page the form lives on.
 *
 * The flash is a server-side row (`form_flashes`) named by a random HttpOnly cookie: a 4,000-character
 * imprint does not fit a cookie, and a row is read once and deleted. Secret-bearing fields (keys,
 * continuity secrets, tokens) are never stored: the person types them again.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../shared/errors.ts';
import type { Flash } from '../shared/flash.ts';
import type { Row } from './db/kysely.ts';
import { Refusal } from '../shared/errors.ts';
import { safeReturnTarget } from '../shared/security.ts';
import { withoutQuery } from '../shared/url-path.ts';

/**
 * True when the caller asked for JSON rather than a page. Asking is itself the mark that this URL
 * answers by `Accept`, so every variant is sent with `Vary: Accept` (api/plugins/negotiation.ts).
 * Pages with a JSON twin never ask it themselves: the router dispatches them (api/router.ts).
 */
export function wantsJson(request: FastifyRequest): boolean {
  request.negotiated = true;
  const accept = request.headers.accept ?? '';
  if (!accept) return false;
  const json = accept.indexOf('application/json');
  const html = accept.indexOf('text/html');
  return json !== -1 && (html === -1 || json < html);
}

/** A browser form (urlencoded or multipart) that did not ask for JSON: answered with a 303. */
export function isFormPost(request: FastifyRequest): boolean {
  if (request.method !== 'POST' || wantsJson(request)) return false;
  const type = String(request.headers['content-type'] ?? '');
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
}

/** The body of a POST as an object (forms and JSON alike); anything else is an empty object. */
export const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body)
    ? (request.body as Record<string, unknown>)
    : {};

/** A browser navigation: it accepts HTML and did not prefer JSON (curl's `*\/*` and inject's none are not). */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !wantsJson(request);
}

/**
 * The post-action target: `return_to` when given (a local path, else 400 off_origin_target —
 * never silently replaced), or the fallback.
 */
export function returnTarget(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === '') return fallback;
  const safe = safeReturnTarget(value);
  if (!safe) throw new Refusal('off_origin_target');
  return safe;
}

/** Adds query parameters to a local path (keeps its own query and fragment; a repeated name is replaced). */
export function withQuery(path: string, params: Record<string, string | number>): string {
  const url = new URL(path, 'https://civitas.invalid');
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
  return url.pathname + url.search + url.hash;
}

/**
 * A 303 to a local page. Private and unstored (api/plugins/http-cache.ts makes every 303 so): many
 * of these carry a fresh credential cookie.
 */
export function seeOther(reply: FastifyReply, location: string) {
  return reply.code(303).header('location', location).send();
}

/**
 * The page a form was posted from: the Referer's path and query when it is this service's own
 * origin (browsers send it for same-origin posts under strict-origin-when-cross-origin), else null.
 */
export function formPage(request: FastifyRequest): string | null {
  const referer = request.headers.referer;
  if (!referer) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  const own = new Set([request.headers.host, safeHost(request.server.civitas?.config.origin)]);
  if (!own.has(url.host)) return null;
  const clean = new URLSearchParams([...url.searchParams].filter(([name]) => !FLASH_PARAMS.has(name)));
  return safeReturnTarget(url.pathname + (clean.size ? `?${clean}` : '')) || null;
}

function safeHost(origin: string | undefined): string | undefined {
  try {
    return origin ? new URL(origin).host : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The flash

export const FLASH_COOKIE = 'civitas_flash';
const FLASH_LIFETIME_S = 600;
/** Query parameters a page adds after success; dropped from the return page so an old success is not repeated. */
const FLASH_PARAMS = new Set(['failed']);
/** Fields whose values are never stored, not even for ten minutes. */
const SECRET_FIELD = /key|secret|token|password|proof|continuity|code/i;
const MAX_VALUE = 8_000;

function typedValues(body: unknown): Record<string, string> {
  if (!body || typeof body !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (SECRET_FIELD.test(name) || name === 'return_to') continue;
    const text = Array.isArray(value)
      ? value.map(String).join(',')
      : typeof value === 'string' || typeof value === 'number'
        ? String(value)
        : null;
    if (text !== null) out[name] = text.slice(0, MAX_VALUE);
  }
  return out;
}

function fieldMessages(body: ErrorBody, values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const issues = Array.isArray(body.issues) ? (body.issues as { path?: unknown; message?: unknown }[]) : [];
  for (const issue of issues) {
    const path = String(issue.path ?? '');
    if (path && !out[path]) out[path] = String(issue.message ?? 'invalid');
  }
  // A refusal that names what it refused (`{ reason: 'not_found', amends: 'axiom-9' }`) marks the
  // field that carried exactly that value, so the page can put the hint beside it.
  if (issues.length === 0) {
    const extra = body as unknown as Record<string, unknown>;
    for (const [name, typed] of Object.entries(values)) {
      if (typed !== '' && typeof extra[name] === 'string' && extra[name] === typed) out[name] = body.hint;
    }
  }
  return out;
}

function cookieOptions(request: FastifyRequest) {
  const secure = String(request.server.civitas?.config.origin ?? '').startsWith('https:');
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', maxAge: FLASH_LIFETIME_S };
}

/**
 * A failed browser form goes back to its page: stores the flash and answers 303 to the page.
 * Returns false (nothing sent) when there is no page to go back to or the flash cannot be stored;
 * the caller then answers the error itself (an HTML error page for a browser).
 */
export async function sendFormBack(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: ErrorBody,
): Promise<boolean> {
  if (!isFormPost(request)) return false;
  const page = formPage(request);
  const db = request.server.civitas?.db;
  if (!page || !db) return false;
  const flash: Flash = {
    page: withoutQuery(page),
    action: withoutQuery(request.url),
    reason: body.reason,
    hint: body.hint,
    status,
    fields: fieldMessages(body, typedValues(request.body)),
    values: typedValues(request.body),
  };
  const id = randomBytes(24).toString('base64url');
  try {
    await db.query('delete from form_flashes where expires_at < now()');
    await db.query(
      `insert into form_flashes (id, payload, expires_at) values ($1, $2, now() + interval '${FLASH_LIFETIME_S} seconds')`,
      [id, JSON.stringify(flash)],
    );
  } catch {
    return false;
  }
  reply.setCookie(FLASH_COOKIE, id, cookieOptions(request));
  seeOther(reply, page);
  return true;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The flash of a failed form, read (and deleted) when its page is requested. */
    flash?: Flash;
  }
}

/**
 * onRequest: a page navigation carrying the flash cookie takes its flash (once) and clears the
 * cookie. The pages' own in-process API reads (internal) never consume it.
 */
export async function takeFlash(request: FastifyRequest, reply: FastifyReply) {
  const id = request.cookies?.[FLASH_COOKIE];
  if (!id || request.method !== 'GET' || request.headers['x-civitas-internal'] || !wantsHtml(request)) return;
  try {
    // Raw: taken once, the delete is the read.
    const rows = await request.server.civitas.db.query<Pick<Row<'form_flashes'>, 'payload'>>(
      `delete from form_flashes where id = $1 and payload->>'page' = $2 and expires_at > now() returning payload`,
      [id, withoutQuery(request.url).replace(/(.)\/$/, '$1')],
    );
    if (!rows.length) return;
    reply.clearCookie(FLASH_COOKIE, { ...cookieOptions(request), maxAge: undefined });
    const payload = rows[0]?.payload;
    // The payload is the Flash sendFormBack stored; a driver may hand the json back as text.
    if (payload) request.flash = (typeof payload === 'string' ? JSON.parse(payload) : payload) as Flash;
  } catch {
    // no flash is better than no page
  }
}
