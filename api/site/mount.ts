/**
 * Serving the built site from a Fastify app: hashed assets, prerendered pages and Astro's SSR handler.
 * Host code: it takes the Fastify instance because it registers the asset (and, split, page) routes.
 *
 * Used by the API's one-origin server (api/app.ts: a route for every path, calling the helpers below)
 * and by api/site/server.ts, the split deploy's site server (catch-all routes, `pageRoutes: true`).
 * Beside it: files.ts (dist/client in memory), page-index.ts (site/pages), renderer.ts (Astro's
 * renders, shared and kept), captured-response.ts (Astro's response for Fastify) and client.ts (the
 * in-process API client SSR pages read through).
 *
 * Integration in the API (one origin):
 *
 *   const site = await mountSite(app, { locals: injectLocals(app) });   // injectLocals: ./client.ts
 *   // page route without a Fastify implementation:
 *   if (await site.sendPrerendered(reply, request.url)) return reply;   // dist/client/<path>/index.html
 *   if (site.hasPage(request.url)) return site.renderSsr(request, reply); // Astro SSR, sent through reply
 *   // else 501 not_implemented
 *   // asset routes (/favicon.ico, /og.png, /theme.<hash>.css, /font/<name>.<hash>.woff2, ...):
 *   if (site.sendAsset(reply, request.url)) return reply;
 *
 * By default mountSite registers GET/HEAD routes for the exact asset files it found (theme, fonts,
 * favicons, og images). Pass `assetRoutes: false` when the API registers those paths itself.
 *
 * Why not @fastify/static: its per-file routes and sendFile collide with a host that owns every path;
 * dist/client is small (under 1 MB), read once into memory with its ETag and cache policy.
 *
 * Caching: theme.<hash>.css and font/* are `public, max-age=31536000, immutable`; other assets
 * `public, max-age=3600`; every page, prerendered or rendered, gets the cache class its registry
 * entry declares (page-cache.ts), never one of its own.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { applyTheme, themeFromCookieHeader } from '../../site/lib/theme.ts';
import { noteRevalidated } from '../plugins/compression.ts';
import { etagMatches } from '../plugins/http-cache.ts';
import { renderEtag, type RenderedPage } from './kept-renders.ts';
import type { AstroHandler } from './captured-response.ts';
import { pageRenderer, type LocalsOption, type SiteLocals } from './renderer.ts';
import { pageCache, PERSONAL_PAGE } from './page-cache.ts';
import {
  loadClientFiles,
  normalisePath,
  readAssetsManifest,
  REPO_ROOT,
  type AssetsManifest,
  type StoredFile,
} from './files.ts';
import { listAstroPageDetails, templateToRegExp } from './page-index.ts';
import { withoutQuery } from '../../shared/url-path.ts';

export type { SiteLocals } from './renderer.ts';

export interface MountSiteOptions {
  /** Per-request Astro locals (see injectLocals), or a fixed object. */
  locals?: LocalsOption;
  /** Register GET/HEAD routes for the asset files found in dist/client. Default true. */
  assetRoutes?: boolean;
  /** Register a GET/HEAD catch-all `/*` for pages (standalone site server only). Default false. */
  pageRoutes?: boolean;
  /** Build output directory. Default <repo>/dist. */
  distDir?: string;
  /**
   * Anonymous renders of one URL that arrive in one event-loop turn share one render begun after
   * them (shared/coalesce.ts `gather`): for an app on the embedded database, whose reads hold the thread.
   */
  gatherRenders?: boolean;
  /**
   * The Record's current revision (api/record/revision.ts), read after the request arrived. With it,
   * anonymous renders of pages that read the Record alone (RENDERS_FROM) are kept per URL while it
   * stands still. Absent (the split-deploy site server has no database): every render is made afresh.
   */
  recordRevision?: () => Promise<number>;
}

export interface SiteMount {
  /** The concrete hashed names from dist/assets.json: { theme: '/theme.<hash>.css', font: '/font/…woff2', fonts }. */
  assets: AssetsManifest;
  /** Sends a non-HTML file from dist/client. Returns false (and sends nothing) if there is none. */
  sendAsset(reply: FastifyReply, path: string): boolean;
  /** Sends dist/client/<path>/index.html (or <path>.html). Returns false (and sends nothing) if absent. */
  sendPrerendered(reply: FastifyReply, path: string): Promise<boolean>;
  /** True if some page in site/pages renders on demand for this path. */
  hasPage(path: string): boolean;
  /**
   * Renders a GET/HEAD request with Astro's SSR handler and sends the page through `reply` (404 in the
   * error shape if no Astro page matches). The page is buffered rather than streamed through a
   * hijacked reply, so the host's onSend hooks (security headers, cache policy) still apply.
   */
  renderSsr(request: FastifyRequest, reply: FastifyReply, locals?: SiteLocals): Promise<FastifyReply>;
  /**
   * Renders the site's error page (site/pages/error.astro) for a browser navigation that failed:
   * the status and the error body's words, in the site's layout.
   */
  renderError(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    error: { reason: string; hint: string },
    locals?: SiteLocals,
  ): Promise<FastifyReply>;
  /** Renders a page Fastify never routes (`/error`, `/feed-view`) for `request`, adding `extra` to its locals. */
  renderInternal(
    request: FastifyRequest,
    path: string,
    extra: Partial<SiteLocals>,
    locals?: SiteLocals,
  ): Promise<RenderedPage>;
}

/** A request nothing personal can shape, so others may share its render: GET/HEAD, no cookie, no credentials. */
function sharable(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.headers.cookie &&
    !request.headers.authorization
  );
}

/** The error page's internal path: Fastify never routes it, only renderError reaches it. */
const ERROR_PAGE = '/error';

/** Mounts the built site on `app`. Throws, naming the fix, if the site has not been built. */
export async function mountSite(app: FastifyInstance, options: MountSiteOptions = {}): Promise<SiteMount> {
  const distDir = options.distDir ?? join(REPO_ROOT, 'dist');
  const clientDir = join(distDir, 'client');
  const entry = join(distDir, 'server', 'entry.mjs');
  if (!existsSync(clientDir) || !existsSync(entry)) {
    throw new Error(
      `The site is not built (${clientDir} or ${entry} is missing): run \`npm run build\` first.`,
    );
  }

  const files = loadClientFiles(clientDir);
  const assets = readAssetsManifest(distDir);
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const pageDetails = listAstroPageDetails();
  const pages = pageDetails.filter((p) => !p.prerender).map((p) => templateToRegExp(p.route));
  const cache = pageCache(pageDetails.map((p) => p.route));

  const { resolveLocals, render, sharedRender } = pageRenderer(handler, options);

  const sendStored = (
    reply: FastifyReply,
    file: StoredFile,
    body: Buffer | string = file.body,
    cacheControl = file.cacheControl,
  ) => {
    reply.header('content-type', file.type).header('cache-control', cacheControl).header('etag', file.etag);
    // Weakly compared: a coded answer carries the tag weakened (api/plugins/compression.ts).
    if (!etagMatches(reply.request.headers['if-none-match'], file.etag))
      return void reply.code(200).send(body);
    noteRevalidated(reply, body);
    reply.code(304).send();
  };

  const site: SiteMount = {
    assets,

    sendAsset(reply, path) {
      const file = files.get(normalisePath(path));
      if (!file || file.type.startsWith('text/html')) return false;
      sendStored(reply, file);
      return true;
    },

    async sendPrerendered(reply, path) {
      const clean = normalisePath(path).replace(/\/$/, '');
      const file = files.get(`${clean}/index.html`) ?? files.get(`${clean}.html`);
      if (!file) return false;
      const theme = themeFromCookieHeader(reply.request.headers.cookie);
      // The same file for every visitor but the theme: only a rewritten one is personal.
      const cacheControl = cache.builtCacheControl(clean, theme !== 'system');
      reply.header('vary', 'Cookie');
      if (theme === 'system') {
        sendStored(reply, file, file.body, cacheControl);
      } else {
        const html = applyTheme(file.body.toString('utf8'), theme);
        reply.header('content-type', file.type).header('cache-control', cacheControl).code(200).send(html);
      }
      return true;
    },

    hasPage(path) {
      const clean = normalisePath(path).replace(/(.)\/$/, '$1');
      return pages.some((re) => re.test(clean));
    },

    async renderInternal(request, path, extra, locals) {
      const raw = Object.create(request.raw, { url: { value: path }, method: { value: 'GET' } });
      const pageLocals = { ...(locals ?? (await resolveLocals(request)) ?? {}), ...extra };
      return render(request, pageLocals, raw as IncomingMessage);
    },

    async renderError(request, reply, status, error, locals) {
      const { reason, hint } = error;
      const pageError = { status, reason, hint, path: withoutQuery(request.url), method: request.method };
      const rendered = await site.renderInternal(request, ERROR_PAGE, { pageError }, locals);
      // The error page answers with the status it was given (a 503 outage included); any other
      // status, or no body, means the page itself failed: the error shape as JSON instead.
      if (!rendered.matched || rendered.status !== status || !rendered.body.length)
        return reply.code(status).send(error);
      for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
      return reply.code(status).header('cache-control', PERSONAL_PAGE).send(rendered.body);
    },

    async renderSsr(request, reply, locals) {
      // An anonymous request (no cookie, no credentials) shares a render of the same URL begun
      // after it arrived (shared/coalesce.ts): a burst of visitors costs one render per render-time,
      // and each still gets a page rendered after it asked. Never a page that sets a cookie.
      const shared = !locals && sharable(request);
      let page = shared ? await sharedRender(request) : await render(request, locals);
      if (page.request !== request && page.headers['set-cookie']) page = await render(request, locals);
      if (!page.matched) {
        const notFound = {
          ok: false,
          reason: 'not_found',
          hint: 'No page lives at this path. See /atlas for the map of every route.',
        };
        if (acceptsHtml(request)) return site.renderError(request, reply, 404, notFound);
        return reply.code(404).header('cache-control', 'no-store').send(notFound);
      }
      for (const [name, value] of Object.entries(page.headers)) reply.header(name, value);
      // One render, one tag: the visitors sharing a render share its ETag, hashed once (api/plugins/http-cache.ts).
      if (shared && page.status === 200 && !page.headers['set-cookie'])
        reply.header('etag', renderEtag(page));
      cache.applyRendered(request, reply);
      return reply.code(page.status).send(page.body);
    },
  };

  if (options.assetRoutes !== false) {
    for (const [path, file] of files) {
      if (file.type.startsWith('text/html')) continue;
      app.route({
        method: ['GET', 'HEAD'],
        url: path,
        handler: (_req, reply) => void sendStored(reply, file),
      });
    }
  }

  if (options.pageRoutes) {
    app.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      handler: async (request, reply) => {
        if (site.sendAsset(reply, request.url)) return reply;
        if (await site.sendPrerendered(reply, request.url)) return reply;
        return site.renderSsr(request, reply);
      },
    });
  }

  return site;
}

/** A browser navigation (HTML accepted, JSON not preferred): it gets pages, not JSON, even for errors. */
function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}
