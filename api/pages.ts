import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../shared/errors.ts';
import type { SiteMount } from '../site/mount.ts';

declare module 'fastify' {
  interface FastifyInstance {
    site?: SiteMount;
  }
}

/** Sends the Astro page for this request (prerendered HTML, else SSR); false when there is none. */
export async function sendPage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const site = request.server.site;
  const path = request.url.split('?')[0];
  if (site && (await site.sendPrerendered(reply, path))) return true;
  if (!site?.hasPage(path)) return false;
  await site.renderSsr(request, reply);
  keepPersonalPagesPrivate(request, reply);
  return true;
}

/**
 * A live page may ask for shared caching (`public`, `s-maxage`) for its anonymous form only. Any
 * request with a cookie (a session, a theme, a flash) may have shaped the page, so its answer is
 * made `private, no-store` whatever the page said; the public form varies on Cookie.
 */
function keepPersonalPagesPrivate(request: FastifyRequest, reply: FastifyReply) {
  const cacheControl = String(reply.getHeader('cache-control') ?? '');
  if (!/public|s-maxage/i.test(cacheControl)) return;
  if (request.headers.cookie || request.headers.authorization) reply.header('cache-control', 'private, no-store');
  else reply.header('vary', 'Cookie');
}

/**
 * Renders the Astro page for this request. Hybrid routes call it when the caller did not ask for
 * JSON; the page itself reads the JSON projection through apiGet.
 */
export async function renderPage(request: FastifyRequest, reply: FastifyReply) {
  if (await sendPage(request, reply)) return reply;
  throw new Refusal('not_implemented', {}, 'The page for this route is not built; ask for application/json to read its data.');
}
