import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the answer depends on `Accept` (HTML or JSON): this plugin then adds `Vary: Accept`. */
    negotiated?: boolean;
  }
}

/**
 * What a cache may do with a variant nobody gave a policy: store it, but ask us before each use.
 * Hybrids give their own (the /commons page is `public, max-age=30`); this fills only a gap.
 */
export const NEGOTIATED_DEFAULT_CACHE = 'no-cache';

/** Adds `token` to a Vary header value unless it is already there (or the value is `*`). */
export function withVary(current: unknown, token: string): string {
  const values = String(current ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.includes('*') || values.some((v) => v.toLowerCase() === token.toLowerCase()))
    return values.join(', ');
  return [...values, token].join(', ');
}

/**
 * HTTP semantics on hybrids: a URL that answers HTML or JSON by `Accept` (the request was marked
 * by wantsJson in the router's dispatch, or by the sign-in redirect) sends `Vary: Accept` on every
 * variant, so a shared cache
 * never hands the HTML to a JSON client, and every variant carries a `Cache-Control`.
 */
async function negotiation(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.negotiated) {
      reply.header('vary', withVary(reply.getHeader('vary'), 'Accept'));
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', NEGOTIATED_DEFAULT_CACHE);
    }
    done(null, payload);
  });
}

export default fp(negotiation, { name: 'civitas-negotiation' });
