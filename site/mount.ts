/**
 * Serving the built site from a Fastify app: hashed assets, prerendered pages and Astro's SSR handler.
 *
 * Used by two hosts:
 * - the API's one-origin server (api/), which owns a route for every path and calls the helpers below
 *   from its page and asset routes;
 * - site/server.ts, the standalone site server of the split deploy, which lets mountSite register
 *   catch-all routes (`routes: true`).
 *
 * Integration in the API (one origin):
 *
 *   const site = await mountSite(app, { locals: injectLocals(app) });
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
 * Why not @fastify/static: it registers one route per file (or a wildcard) and decorates the reply
 * with sendFile, which collides with a host that already owns every path; dist/client is small
 * (well under 1 MB), so it is read once into memory with its ETag and cache policy.
 *
 * Caching: theme.<hash>.css and font/* are `public, max-age=31536000, immutable`; other assets
 * `public, max-age=3600`; prerendered pages `public, max-age=300` with `Vary: Cookie`, or
 * `private, no-store` when the civitas_theme cookie personalised them.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyTheme, themeFromCookieHeader } from './lib/theme.ts';
import { coalescer } from '../shared/coalesce.ts';

export type SiteLocals = App.Locals;
type LocalsOption = SiteLocals | ((request: FastifyRequest) => SiteLocals | Promise<SiteLocals>);

export interface MountSiteOptions {
  /** Per-request Astro locals (see injectLocals), or a fixed object. */
  locals?: LocalsOption;
  /** Register GET/HEAD routes for the asset files found in dist/client. Default true. */
  assetRoutes?: boolean;
  /** Register a GET/HEAD catch-all `/*` for pages (standalone site server only). Default false. */
  pageRoutes?: boolean;
  /** Build output directory. Default <repo>/dist. */
  distDir?: string;
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
  renderError(request: FastifyRequest, reply: FastifyReply, status: number, error: { reason: string; hint: string }, locals?: SiteLocals): Promise<FastifyReply>;
}

interface RenderedPage {
  /** the request the page was rendered for */
  request: FastifyRequest;
  matched: boolean;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/**
 * A live page may ask for shared caching (`public`, `s-maxage`) for its anonymous form only. Any
 * request with a cookie (a session, a theme, a flash) or credentials may have shaped the page, so
 * its answer is made `private, no-store` whatever the page said; the shared form varies on Cookie.
 */
function keepPersonalPagesPrivate(request: FastifyRequest, reply: FastifyReply) {
  const cacheControl = String(reply.getHeader('cache-control') ?? '');
  if (!/public|s-maxage/i.test(cacheControl)) return;
  if (sharable(request)) reply.header('vary', 'Cookie');
  else reply.header('cache-control', PAGE_PRIVATE);
}

/** A request nothing personal can shape: GET/HEAD without cookies or credentials. */
function sharable(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !request.headers.cookie && !request.headers.authorization;
}

/** The error page's internal path; Fastify never routes it, so only renderError reaches it. */
const ERROR_PAGE = '/error';

export interface AssetsManifest {
  theme: string;
  font: string;
  fonts: string[];
}

interface StoredFile {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals?: object,
) => Promise<void>;

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES_DIR = join(REPO_ROOT, 'site', 'pages');

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';
const PAGE_PUBLIC = 'public, max-age=300';
const PAGE_PRIVATE = 'private, no-store';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.webmanifest': 'application/manifest+json',
};

/** Mounts the built site on `app`. Throws, naming the fix, if the site has not been built. */
export async function mountSite(app: FastifyInstance, options: MountSiteOptions = {}): Promise<SiteMount> {
  const distDir = options.distDir ?? join(REPO_ROOT, 'dist');
  const clientDir = join(distDir, 'client');
  const entry = join(distDir, 'server', 'entry.mjs');
  if (!existsSync(clientDir) || !existsSync(entry)) {
    throw new Error(`The site is not built (${clientDir} or ${entry} is missing): run \`npm run build\` first.`);
  }

  const files = loadClientFiles(clientDir);
  const assets = readAssetsManifest(distDir);
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const pages = listAstroPageDetails().filter((p) => !p.prerender).map((p) => templateToRegExp(p.route));

  const resolveLocals = async (request: FastifyRequest): Promise<SiteLocals | undefined> => {
    const { locals } = options;
    return typeof locals === 'function' ? locals(request) : locals;
  };

  const sendStored = (reply: FastifyReply, file: StoredFile, body: Buffer | string = file.body, cacheControl = file.cacheControl) => {
    reply.header('content-type', file.type).header('cache-control', cacheControl).header('etag', file.etag);
    if (reply.request.headers['if-none-match'] === file.etag) {
      reply.code(304).send();
    } else {
      reply.code(200).send(body);
    }
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
      reply.header('vary', 'Cookie');
      if (theme === 'system') {
        sendStored(reply, file);
      } else {
        const html = applyTheme(file.body.toString('utf8'), theme);
        reply.header('content-type', file.type).header('cache-control', PAGE_PRIVATE).code(200).send(html);
      }
      return true;
    },

    hasPage(path) {
      const clean = normalisePath(path).replace(/(.)\/$/, '$1');
      return pages.some((re) => re.test(clean));
    },

    async renderError(request, reply, status, error, locals) {
      const raw = Object.create(request.raw, { url: { value: ERROR_PAGE }, method: { value: 'GET' } }) as IncomingMessage;
      const pageError = { status, reason: error.reason, hint: error.hint, path: request.url.split('?')[0], method: request.method };
      const pageLocals = { ...(locals ?? (await resolveLocals(request)) ?? {}), pageError };
      const rendered = await render(request, pageLocals, raw);
      if (!rendered.matched || rendered.status >= 500) return reply.code(status).send(error);
      for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
      return reply.code(status).header('cache-control', 'no-store').send(rendered.body);
    },

    async renderSsr(request, reply, locals) {
      // An anonymous request (no cookie, no credentials) shares a render of the same URL begun
      // after it arrived (shared/coalesce.ts): a burst of visitors costs one render per render-time,
      // and each still gets a page rendered after it asked. Never a page that sets a cookie.
      let page = !locals && sharable(request)
        ? await renders(`${request.method} ${request.headers.host ?? ''} ${request.url}`, () => render(request))
        : await render(request, locals);
      if (page.request !== request && page.headers['set-cookie']) page = await render(request, locals);
      if (!page.matched) {
        const notFound = { reason: 'not_found', hint: 'No page lives at this path. See /atlas for the map of every route.' };
        if (acceptsHtml(request)) return site.renderError(request, reply, 404, notFound);
        return reply
          .code(404)
          .header('cache-control', 'no-store')
          .send({ ok: false, reason: 'not_found', hint: 'No page lives at this path. See /atlas for the map of every route.' });
      }
      for (const [name, value] of Object.entries(page.headers)) reply.header(name, value);
      keepPersonalPagesPrivate(request, reply);
      return reply.code(page.status).send(page.body);
    },
  };

  const renders = coalescer<string, RenderedPage>();
  const render = async (request: FastifyRequest, locals?: SiteLocals, raw: IncomingMessage = request.raw): Promise<RenderedPage> => {
    const pageLocals = locals ?? (await resolveLocals(request)) ?? {};
    const res = new CapturedResponse(raw);
    let matched = true;
    try {
      const noPage = () => {
        matched = false;
        res.end();
      };
      await handler(raw, res as unknown as ServerResponse, noPage, pageLocals);
    } catch {
      res.statusCode = 500;
      res.end();
    }
    await res.done;
    return { request, matched, status: res.statusCode, headers: { ...res.headers }, body: res.body() };
  };

  if (options.assetRoutes !== false) {
    for (const [path, file] of files) {
      if (file.type.startsWith('text/html')) continue;
      app.route({ method: ['GET', 'HEAD'], url: path, handler: (_req, reply) => void sendStored(reply, file) });
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

/**
 * The in-process API client pages use in the one-origin server: `app.inject` (no socket), with
 * `headers` added to every request (the API passes its internal-request token here).
 */
export function injectClient(app: FastifyInstance, headers: Record<string, string> = {}): NonNullable<SiteLocals['civitas']> {
  return {
    async inject(req: { method: string; url: string; headers?: Record<string, string> }) {
      const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: { ...req.headers, ...headers } });
      let body: unknown = null;
      try {
        body = res.body ? JSON.parse(res.body) : null;
      } catch {
        body = null;
      }
      return { status: res.statusCode, body };
    },
  };
}

/**
 * Locals for the one-origin server: pages read the API through `app.inject` (no socket).
 * Pass as `mountSite(app, { locals: injectLocals(app, headers) })`.
 */
export function injectLocals(app: FastifyInstance, headers: Record<string, string> = {}): (request: FastifyRequest) => SiteLocals {
  const civitas = injectClient(app, headers);
  return (request) => ({ civitas, flash: request.flash });
}

export interface AstroPage {
  /** Route template in the registry's notation, e.g. `/changelog/{tag}`. */
  route: string;
  /** Source file relative to the repo, e.g. `site/pages/changelog/[tag].astro`. */
  file: string;
  /** False when the page opts out of prerendering (`export const prerender = false`). */
  prerender: boolean;
}

/** Route templates of every page file in site/pages, sorted — for the routes report. */
export function listAstroPages(): string[] {
  return listAstroPageDetails().map((p) => p.route);
}

/** Every page file in site/pages with its route template and rendering mode. */
export function listAstroPageDetails(pagesDir = PAGES_DIR): AstroPage[] {
  const out: AstroPage[] = [];
  for (const abs of walk(pagesDir)) {
    const rel = relative(pagesDir, abs).split(sep).join('/');
    const m = /^(.*)\.(astro|md|mdx|ts|js)$/.exec(rel);
    if (!m || rel.split('/').some((seg) => seg.startsWith('_'))) continue;
    const segments = m[1].split('/').filter((seg, i, all) => !(seg === 'index' && i === all.length - 1));
    const route = '/' + segments.map((seg) => seg.replace(/^\[(?:\.\.\.)?(.+)\]$/, '{$1}')).join('/');
    const source = readFileSync(abs, 'utf8');
    out.push({
      route: route === '/' ? '/' : route.replace(/\/$/, ''),
      file: relative(REPO_ROOT, abs).split(sep).join('/'),
      prerender: !/export\s+const\s+prerender\s*=\s*false/.test(source),
    });
  }
  return out.sort((a, b) => a.route.localeCompare(b.route));
}

/** Reads dist/assets.json (written by scripts/build.ts). */
export function readAssetsManifest(distDir = join(REPO_ROOT, 'dist')): AssetsManifest {
  const file = join(distDir, 'assets.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  return JSON.parse(readFileSync(file, 'utf8')) as AssetsManifest;
}

/**
 * The slice of http.ServerResponse that Astro's node handler writes to (writeHead, write, end, the
 * finish/close events), collected in memory so the page can leave through Fastify's reply.
 */
class CapturedResponse extends EventEmitter {
  req: IncomingMessage;
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  headers: Record<string, string | string[]> = {};
  done: Promise<void>;
  private chunks: Buffer[] = [];
  private finish!: () => void;

  constructor(req: IncomingMessage) {
    super();
    this.req = req;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  setHeader(name: string, value: string | number | readonly string[]) {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? [...value] : String(value);
    return this;
  }

  getHeader(name: string) {
    return this.headers[name.toLowerCase()];
  }

  removeHeader(name: string) {
    delete this.headers[name.toLowerCase()];
  }

  writeHead(status: number, headers?: Record<string, string | number | string[] | undefined>) {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array, encoding?: unknown, callback?: () => void) {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (typeof cb === 'function') queueMicrotask(cb as () => void);
    return true;
  }

  end(chunk?: string | Uint8Array | (() => void)) {
    if (chunk && typeof chunk !== 'function') this.write(chunk);
    if (this.writableEnded) return this;
    this.headersSent = true;
    this.writableEnded = true;
    this.emit('finish');
    this.emit('close');
    this.finish();
    return this;
  }

  destroy() {
    if (!this.writableEnded) this.statusCode = this.statusCode < 400 ? 500 : this.statusCode;
    return this.end();
  }

  body(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function loadClientFiles(clientDir: string): Map<string, StoredFile> {
  const files = new Map<string, StoredFile>();
  for (const abs of walk(clientDir)) {
    const urlPath = '/' + relative(clientDir, abs).split(sep).join('/');
    const body = readFileSync(abs);
    const hashed = /^\/theme\.[\w-]+\.css$/.test(urlPath) || urlPath.startsWith('/font/') || urlPath.startsWith('/_astro/');
    files.set(urlPath, {
      body,
      type: TYPES[extname(abs)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: urlPath.endsWith('.html') ? PAGE_PUBLIC : hashed ? IMMUTABLE : SHORT,
    });
  }
  return files;
}

function* walk(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) yield* walk(abs);
    else yield abs;
  }
}

/** The path part of a URL, decoded, with no query and no way out of the root. */
function normalisePath(url: string): string {
  let path = url.split(/[?#]/, 1)[0] || '/';
  try {
    path = decodeURIComponent(path);
  } catch {
    return '/\0';
  }
  if (!path.startsWith('/') || path.includes('\0') || path.split('/').includes('..')) return '/\0';
  return path.replace(/\/{2,}/g, '/');
}

/** A browser navigation (HTML accepted, JSON not preferred): it gets pages, not JSON, even for errors. */
function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

function templateToRegExp(route: string): RegExp {
  const pattern = route
    .split('/')
    .map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern || '/'}$`);
}
