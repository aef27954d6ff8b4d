/**
 * The in-process API client pages use in the one-origin server: requests go through `app.inject`
 * (no socket), so an SSR page reads the same projections the API serves.
 * Host code: it takes the Fastify instance because its requests are `app.inject` calls.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SiteLocals } from './mount.ts';

/**
 * The in-process API client pages use in the one-origin server: `app.inject` (no socket), with
 * `headers` added to every request (the API passes its internal-request token here).
 */
export function injectClient(
  app: FastifyInstance,
  headers: Record<string, string> = {},
): NonNullable<SiteLocals['civitas']> {
  return {
    async inject(req: { method: string; url: string; headers?: Record<string, string> }) {
      const res = await app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: { ...req.headers, ...headers },
      });
      let body: unknown;
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
export function injectLocals(
  app: FastifyInstance,
  headers: Record<string, string> = {},
): (request: FastifyRequest) => SiteLocals {
  const civitas = injectClient(app, headers);
  return (request) => ({ civitas, flash: request.flash });
}
