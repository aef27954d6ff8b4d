import { injectClient } from '../site/client.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';

/** Owner views: the page, or its JSON projection by Accept; personal either way, so `private, no-store`. */
export function personalHybrid<T>(view: (request: FastifyRequest) => Promise<T>) {
  return {
    handler: view,
    page: true as const,
  };
}

/**
 * Renders this request's Astro page with extra locals: how a POST door shows a one-time result
 * (the Sovereign Key after crossing) without storing it or putting it in a URL. `viewer` is who
 * the door just signed in: the request carried no session yet, so the header would otherwise
 * offer the ways in beside "You are signed in".
 */
export async function renderWith(
  request: FastifyRequest,
  reply: FastifyReply,
  identity: Record<string, unknown>,
  viewer?: App.Locals['viewer'],
) {
  const app = request.server;
  const site = app.site;
  if (!site) {
    throw new Refusal(
      'not_implemented',
      {},
      'The site is not built here; send Accept: application/json to receive this result as JSON.',
    );
  }
  const civitas = injectClient(app, { 'x-civitas-internal': app.internalToken });
  return site.renderSsr(request, reply, { civitas, identity, viewer, flash: request.flash } as App.Locals);
}
