/**
 * The standalone site server of the split deploy: pages and assets on their own process, reading the
 * API over HTTP at CIVITAS_API_URL (default http://127.0.0.1:8080).
 *
 *   npm run build && SITE_PORT=4321 CIVITAS_API_URL=https://api.example node api/site/server.ts
 *
 * GET/HEAD: hashed assets, prerendered pages, then Astro's SSR pages. Everything else (form POSTs,
 * /api/*, feeds, /mcp) is relayed to the API unchanged, so relative form actions keep working when
 * both sit behind one public origin or when this server is that origin. A relayed request keeps its
 * Origin and Sec-Fetch-Site: the API judges a cross-origin form post as it would judge it directly.
 *
 * Every answer this server makes itself (pages, assets, its own errors) gets the security headers
 * of the one-origin server, by the same plugin (api/plugins/security-headers.ts); a relayed answer
 * keeps the API's own.
 */
import Fastify from 'fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../shared/errors.ts';
import { reasonForStatus } from '../plugins/errors.ts';
import { apiBaseUrl } from '../../site/lib/api.ts';
import { mountSite } from './mount.ts';
import compression from '../plugins/compression.ts';
import securityHeaders from '../plugins/security-headers.ts';
import { loadConfigOrExit } from '../config.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** The chain the API reads: what a proxy before this server said (only if trusted here), then the client. */
function forwardedFor(request: FastifyRequest): string {
  return request.ips ? [...request.ips].reverse().join(', ') : request.ip;
}

export async function buildSiteServer() {
  const app = Fastify({
    logger: { level: process.env.LOG_LEVEL ?? 'info' },
    bodyLimit: 64 * 1024,
    // A proxy in front of this server too (CIVITAS_TRUST_PROXY, same form as the API's).
    trustProxy: loadConfigOrExit().trustProxy,
  });
  // Its own refusals (a body over the limit, a broken request) in the one error shape; a 413 closes
  // the connection, whose unread body would otherwise stall the next request on it.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'site server error');
    if (status === 413) reply.header('connection', 'close');
    return reply
      .code(status)
      .header('cache-control', 'private, no-store')
      .send(errorBody(reasonForStatus(status)));
  });
  // The requests whose answer the API made: they pass on with the API's headers, set there.
  const relayed = new WeakSet<FastifyRequest>();
  await app.register(securityHeaders, { relayed: (request) => relayed.has(request) });
  // br/gzip by Accept-Encoding for pages, assets and relayed answers, as on the one-origin server.
  await app.register(compression);
  // Relay bodies untouched: the API parses and validates them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // The API trusts this server as its proxy (CIVITAS_TRUST_PROXY): its reads name the visitor.
  const site = await mountSite(app, {
    assetRoutes: true,
    locals: (request) => ({ forwardedFor: forwardedFor(request) }),
  });

  const relay = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('x-forwarded-for', forwardedFor(request));
    headers.set('x-forwarded-host', request.headers.host ?? '');
    headers.set('x-forwarded-proto', request.protocol);
    // The API answers this hop unencoded (fetch would decode it anyway); this server codes the
    // answer once for the client, by the client's Accept-Encoding.
    headers.set('accept-encoding', 'identity');
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    let res: Response;
    try {
      res = await fetch(new URL(request.url, apiBaseUrl()), {
        method: request.method,
        headers,
        body: hasBody && request.body ? new Uint8Array(request.body as Buffer) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      return reply.code(503).header('cache-control', 'no-store').send({
        ok: false,
        reason: 'provider_unavailable',
        hint: 'The API did not answer. Try again shortly.',
      });
    }
    // Read whole before anything of it is set: a body cut off midway is this server's own 500.
    const body = Buffer.from(await res.arrayBuffer());
    relayed.add(request);
    reply.code(res.status);
    res.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding' && name !== 'set-cookie')
        reply.header(name, value);
    });
    const cookies = res.headers.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    return body.length ? reply.send(body) : reply.send();
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      if (site.sendAsset(reply, request.url)) return reply;
      if (await site.sendPrerendered(reply, request.url)) return reply;
      if (site.hasPage(request.url)) return site.renderSsr(request, reply);
      return relay(request, reply);
    },
  });
  app.route({ method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/*', handler: relay });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const app = await buildSiteServer();
  const port = Number(process.env.SITE_PORT ?? 4321);
  await app.listen({ port, host: process.env.SITE_HOST ?? '0.0.0.0' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
}
