import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildOpenApi } from '../../shared/openapi.ts';
import { PUBLISHED_ROUTES } from '../../shared/registry/index.ts';
import { defineRoute } from '../route.ts';
import { APP_VERSION } from '../config.ts';
import { agentDirectory, llmsTxt, securityTxt } from './directory.ts';
import { atlas } from './atlas.ts';

function text(body: (request: FastifyRequest) => string, type = 'text/plain; charset=utf-8') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('content-type', type).header('cache-control', 'public, max-age=3600');
    return body(request);
  };
}

const llms = text((request) => llmsTxt(request.server.civitas));
const security = text((request) => securityTxt(request.server.civitas));

/**
 * The description is generated from the registry, the same ROUTES the router registers every
 * route from, so it cannot drift from what is served. The registry is a frozen module constant
 * and the origin and asset names are fixed when the app is built, so the document can only
 * change when the process (and its code) does: it is generated once per app, on first request,
 * and kept with its ETag. Nothing to invalidate across processes — each builds its own from the
 * same code; a deploy restarts them all.
 */
const openApiDocuments = new WeakMap<FastifyInstance, { body: string; etag: string }>();
function openApiDocument(app: FastifyInstance): { body: string; etag: string } {
  let document = openApiDocuments.get(app);
  if (!document) {
    const body = JSON.stringify(buildOpenApi(PUBLISHED_ROUTES, { origin: app.civitas.config.origin, version: APP_VERSION, assets: app.site?.assets }));
    document = { body, etag: `"${hash('sha1', body, 'base64url')}"` };
    openApiDocuments.set(app, document);
  }
  return document;
}

export const discoveryRoutes = [
  defineRoute('GET /openapi.json', {
    cache: 'public',
    async handler(request, reply) {
      const document = openApiDocument(request.server);
      return reply.type('application/json; charset=utf-8').header('etag', document.etag).send(document.body);
    },
  }),
  defineRoute('GET /agents.json', { handler: async (request) => agentDirectory(request.server.civitas, request.server.tools) }),
  defineRoute('GET /llms.txt', { handler: llms }),
  defineRoute('GET /.well-known/llms.txt', { handler: llms }),
  defineRoute('GET /security.txt', { handler: security }),
  defineRoute('GET /.well-known/security.txt', { handler: security }),
  defineRoute('GET /robots.txt', {
    handler: text((request) => {
      const origin = request.server.civitas.config.origin;
      return ['User-agent: *', 'Disallow: /sovereign', 'Disallow: /settings/', 'Disallow: /operator', 'Disallow: /dashboard', 'Disallow: /steward/', 'Allow: /', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
    }),
  }),
  defineRoute('GET /sitemap.xml', {
    handler: text((request) => {
      const origin = request.server.civitas.config.origin;
      const pages = PUBLISHED_ROUTES.filter((r) => (r.kind === 'page' || r.kind === 'hybrid') && !r.path.includes('{') && !r.scope);
      const urls = pages.map((r) => `  <url><loc>${origin}${r.path}</loc></url>`).join('\n');
      return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
    }, 'application/xml; charset=utf-8'),
  }),
  defineRoute('GET /atlas', {
    handler: async (request) => atlas(request.server),
    page: true,
  }),
];
