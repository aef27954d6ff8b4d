import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** A request at least this slow is logged even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/**
 * The per-request log: Fastify's own two info lines per request are off (disableRequestLogging in
 * api/app.ts), and the destination is asynchronous, so a busy process does not spend its event loop
 * writing lines nobody reads. What an operator acts on is still written, one line each: every
 * server error (5xx but 501 not_implemented, as in the errors plugin) and every slow request.
 * The route is its template (`/api/agent/:handle`), never the URL, so no handle or token is logged.
 */
async function requestLog(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const failed = status >= 500 && status !== 501;
    if (!failed && ms < SLOW_REQUEST_MS) return;
    const line = { method: request.method, route: request.routeOptions.url ?? '(no route)', status, ms: Math.round(ms) };
    if (failed) request.log.error(line, 'request answered with a server error');
    else request.log.warn(line, 'slow request');
  });
}

export default fp(requestLog, { name: 'civitas-request-log' });
