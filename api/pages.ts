import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../shared/errors.ts';
import type { SiteMount } from '../site/mount.ts';

declare module 'fastify' {
  interface FastifyInstance {
    site?: SiteMount;
  }
}

/**
 * Renders the Astro page for this request (prerendered HTML or SSR). Hybrid routes call it when
 * the caller did not ask for JSON; the page itself reads the JSON projection through apiGet.
 */
export async function renderPage(request: FastifyRequest, reply: FastifyReply) {
  const site = request.server.site;
  const path = request.url.split('?')[0];
  if (site && (await site.sendPrerendered(reply, path))) return reply;
  if (site?.hasPage(path)) return site.renderSsr(request, reply);
  throw new Refusal('not_implemented', {}, 'The page for this route is not built; ask for application/json to read its data.');
}
