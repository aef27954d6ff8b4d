import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../shared/errors.ts';
import type { SiteMount } from './site/mount.ts';
import { withoutQuery } from '../shared/url-path.ts';

declare module 'fastify' {
  interface FastifyInstance {
    site?: SiteMount;
  }
}

/** Sends the Astro page for this request (prerendered HTML, else SSR); false when there is none. */
export async function sendPage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const site = request.server.site;
  const path = withoutQuery(request.url);
  if (site && (await site.sendPrerendered(reply, path))) return true;
  if (!site?.hasPage(path)) return false;
  await site.renderSsr(request, reply);
  return true;
}

/**
 * Renders the Astro page for this request. Hybrid routes call it when the caller did not ask for
 * JSON; the page itself reads the JSON projection through apiGet.
 */
export async function renderPage(request: FastifyRequest, reply: FastifyReply) {
  if (await sendPage(request, reply)) return reply;
  throw new Refusal(
    'not_implemented',
    {},
    'The page for this route is not built; ask for application/json to read its data.',
  );
}
