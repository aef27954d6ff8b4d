import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildOpenApi } from '../../shared/openapi.ts';
import { PUBLISHED_ROUTES, type RouteShape } from '../../shared/registry/index.ts';
import { defineRoute } from '../route.ts';
import { strongEtag } from '../plugins/http-cache.ts';
import { APP_VERSION } from '../config.ts';
import { agentDirectory, llmsTxt, securityTxt } from './directory.ts';
import { atlas } from './atlas.ts';

function text(body: (request: FastifyRequest) => string, type = 'text/plain; charset=utf-8') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('content-type', type);
    return body(request);
  };
}

/** robots.txt's Disallow prefixes (personal and operator surfaces); the sitemap lists none of them. */
const ROBOTS_DISALLOW = ['/sovereign', '/settings/', '/operator', '/dashboard', '/steward/'];

const llms = text((request) => llmsTxt(request.server.civitas));
const security = text((request) => securityTxt(request.server.civitas));

/**
 * The description is generated from the registry, the same ROUTES the router registers every
 * route from, so it cannot drift from what is served; nobody edits it by hand. The registry is a
 * frozen module constant and the origin and asset names are fixed when the app is built, so the
 * document can only change when the process (and its code) does: it is generated once per app,
 * on first request, and kept as bytes ready to send — as is, gzip and brotli, each with its own
 * strong ETag — so a request costs no serialising, encoding or compressing. Nothing to
 * invalidate across processes: each builds its own from the same code; a deploy restarts them all.
 */
interface Variant {
  body: Buffer;
  etag: string;
}
type Coding = 'br' | 'gzip' | 'identity';
const openApiDocuments = new WeakMap<FastifyInstance, Record<Coding, Variant>>();
const variant = (body: Buffer): Variant => ({ body, etag: strongEtag(body) });
function openApiDocument(app: FastifyInstance): Record<Coding, Variant> {
  let document = openApiDocuments.get(app);
  if (!document) {
    const json = JSON.stringify(
      buildOpenApi(PUBLISHED_ROUTES, {
        origin: app.civitas.config.origin,
        version: APP_VERSION,
        assets: app.site?.assets,
      }),
    );
    const body = Buffer.from(json, 'utf8');
    document = {
      identity: variant(body),
      gzip: variant(gzipSync(body, { level: 9 })),
      br: variant(
        brotliCompressSync(body, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
      ),
    };
    openApiDocuments.set(app, document);
  }
  return document;
}

/** The content coding to send for an Accept-Encoding header (RFC 9110 12.5.3): brotli, then gzip, else none. */
export function pickCoding(acceptEncoding: string | undefined): Coding {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';'); // split() returns ≥ 1 part
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}

export const discoveryRoutes = [
  defineRoute('GET /openapi.json', {
    async handler(request, reply) {
      const coding = pickCoding(request.headers['accept-encoding']);
      const { body, etag } = openApiDocument(request.server)[coding];
      reply.type('application/json; charset=utf-8').header('etag', etag).header('vary', 'Accept-Encoding');
      if (coding !== 'identity') reply.header('content-encoding', coding);
      return reply.send(body);
    },
  }),
  defineRoute('GET /agents.json', {
    handler: async (request) => agentDirectory(request.server.civitas, request.server.tools),
  }),
  defineRoute('GET /llms.txt', { handler: llms }),
  defineRoute('GET /.well-known/llms.txt', { handler: llms }),
  defineRoute('GET /security.txt', { handler: security }),
  defineRoute('GET /.well-known/security.txt', { handler: security }),
  defineRoute('GET /robots.txt', {
    handler: text((request) => {
      const origin = request.server.civitas.config.origin;
      return [
        'User-agent: *',
        ...ROBOTS_DISALLOW.map((prefix) => `Disallow: ${prefix}`),
        'Allow: /',
        `Sitemap: ${origin}/sitemap.xml`,
        '',
      ].join('\n');
    }),
  }),
  defineRoute('GET /sitemap.xml', {
    handler: text((request) => {
      const origin = request.server.civitas.config.origin;
      const urls = PUBLISHED_ROUTES.filter(inSitemap)
        .map((r) => `  <url><loc>${origin}${r.path}</loc></url>`)
        .join('\n');
      return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
    }, 'application/xml; charset=utf-8'),
  }),
  defineRoute('GET /atlas', {
    handler: async (request) => atlas(request.server.realisations),
    page: true,
  }),
];

/**
 * The sitemap lists what an anonymous visitor can read: a page with no parameter, no scope and no
 * one to be known (`identity`: a personal page answers 401 without a session), not an operator or
 * robots-disallowed surface, and not a "not found" page (`…/missing`, which answers 404).
 */
function inSitemap(route: RouteShape): boolean {
  if (route.kind !== 'page' && route.kind !== 'hybrid') return false;
  if (route.path.includes('{') || route.scope || route.identity || route.operator) return false;
  if (route.path.endsWith('/missing')) return false;
  return !ROBOTS_DISALLOW.some((prefix) => route.path.startsWith(prefix));
}
