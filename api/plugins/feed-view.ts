/**
 * Feeds a person can open. A feed route (registry kind `feed`) answers a feed reader exactly as
 * before — its kind, its content type, its bytes — and a browser that navigates to it (the
 * navigation's `Sec-Fetch-Dest: document`, and an `Accept` that prefers HTML to the feed's own type)
 * a page: the same feed read back from those bytes (shared/feeds/view.ts) and rendered in the site's
 * layout with its subscribe panel (site/pages/feed-view.astro). Browsers are dropping XSLT, so an
 * XML stylesheet (/feed.xsl) is not relied on. Every answer of a feed route carries `Vary: Accept`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { feedEntry } from '../../shared/feeds/catalogue.ts';
import { readFeed, type FeedView } from '../../shared/feeds/view.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is a feed (registry kind `feed`). */
    feed?: boolean;
  }
}

/** The internal page that renders a feed; Fastify never routes it. */
export const FEED_VIEW_PAGE = '/feed-view';

/** The HTML answer is shaped by who asks (a signed-in header) and is a second variant of the URL. */
const FEED_VIEW_CACHE = 'private, no-cache';

/** The q of the most specific range in `accept` that matches `type` (0 when none does). */
export function acceptQuality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(/^\s*q=([\d.]+)/.exec(params.find((p) => /^\s*q=/.test(p)) ?? '')?.[1] ?? 1);
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity > best.specificity) best = { specificity, q: Number.isFinite(q) ? q : 0 };
  }
  return best.q;
}

/** A browser's navigation that prefers a page to the feed's own type (`contentType`). */
export function navigatesToFeed(request: FastifyRequest, contentType: string): boolean {
  if (request.method !== 'GET' || request.headers['sec-fetch-dest'] !== 'document') return false;
  const accept = request.headers.accept ?? '';
  const own = contentType.split(';', 1)[0]!.trim().toLowerCase(); // split() returns ≥ 1 part
  return acceptQuality(accept, 'text/html') > acceptQuality(accept, own);
}

async function feedView(app: FastifyInstance) {
  // Synchronous for every route that is not a feed (an async hook costs each request a promise
  // and a turn of the microtask queue); a feed's answer may become its page.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.routeOptions.config?.feed) return done(null, payload);
    asPage(request, reply, payload).then((page) => done(null, page), done);
  });
}

/** A feed's answer, or the page it becomes for a browser's navigation. */
async function asPage(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  request.negotiated = true; // Vary: Accept on every variant (api/plugins/negotiation.ts)
  const contentType = String(reply.getHeader('content-type') ?? '');
  const site = request.server.site;
  if (reply.statusCode !== 200 || typeof payload !== 'string' || !site) return payload;
  if (!navigatesToFeed(request, contentType)) return payload;
  const parsed = readFeed(contentType, payload);
  if (!parsed) return payload;
  const address = `${request.server.civitas.config.origin.replace(/\/$/, '')}${request.url}`;
  const entry = feedEntry(request.url);
  const view: FeedView = { ...parsed, address, name: entry?.name, carries: entry?.carries };
  const page = await site.renderInternal(request, FEED_VIEW_PAGE, { feedView: view });
  if (!page.matched || page.status !== 200) return payload;
  reply.removeHeader('etag');
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', FEED_VIEW_CACHE);
  return page.body;
}

export default fp(feedView, { name: 'civitas-feed-view' });
