import { injectClient } from '../../site/mount.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';
import { cacheControlForCredentialResponse, cacheControlForPersonalized, safeReturnTarget } from '../../shared/security.ts';
import { wantsJson } from '../route.ts';
import { renderPage } from '../pages.ts';

/** A browser form (urlencoded or multipart) that did not ask for JSON: answer with a 303. */
export function isFormPost(request: FastifyRequest): boolean {
  if (wantsJson(request)) return false;
  const type = String(request.headers['content-type'] ?? '');
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
}

/**
 * The post-action return target: `return_to` when given (a local path, else 400
 * off_origin_target — never silently replaced), or the fallback.
 */
export function returnTarget(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === '') return fallback;
  const safe = safeReturnTarget(value);
  if (!safe) throw new Refusal('off_origin_target');
  return safe;
}

/** Adds query parameters to a local path (keeps its own query and fragment). */
export function withQuery(path: string, params: Record<string, string>): string {
  const url = new URL(path, 'https://civitas.invalid');
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.pathname + url.search + url.hash;
}

/** A 303 to a local page. Private and unstored: many of these carry a fresh credential cookie. */
export function seeOther(reply: FastifyReply, location: string) {
  return reply.code(303).header('location', location).header('cache-control', cacheControlForCredentialResponse()).send();
}

/** Owner views: JSON projection or the page; personal either way, so `private, no-store`. */
export function personalHybrid<T>(view: (request: FastifyRequest) => Promise<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', cacheControlForPersonalized());
    if (!wantsJson(request)) return renderPage(request, reply);
    return view(request);
  };
}

/**
 * Renders this request's Astro page with extra locals: how a POST door shows a one-time result
 * (the Sovereign Key after crossing) without storing it or putting it in a URL.
 */
export async function renderWith(request: FastifyRequest, reply: FastifyReply, identity: Record<string, unknown>) {
  const app = request.server;
  const site = app.site;
  if (!site) {
    throw new Refusal('not_implemented', {}, 'The site is not built here; send Accept: application/json to receive this result as JSON.');
  }
  const civitas = injectClient(app, { 'x-civitas-internal': app.internalToken });
  reply.header('cache-control', cacheControlForPersonalized());
  return site.renderSsr(request, reply, { civitas, identity } as App.Locals);
}
