/**
 * GET /health/live: liveness only — this process answers; no dependency is checked (the registry's
 * description). A liveness probe that failed with the database would make an orchestrator restart
 * every healthy process at once when the database blinks; reachability is readiness's question
 * (/health, and /_health for load balancers).
 *
 * Orchestrators ask it every few seconds, per process, forever, so on a real socket it is answered
 * by the HTTP server itself, before Fastify (`livenessServer`, Fastify's documented
 * `serverFactory`): no hooks, no routing, no vitals count (a probe is not traffic). The answer is
 * the same body, status and headers as the registry route in api/health/routes.ts — which still
 * serves it for app.inject, HEAD and any other URL form — and test/api/health/liveness.test.ts
 * compares the two.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { uptimeSeconds } from './readiness.ts';

export const LIVENESS_PATH = '/health/live';

/** The liveness answer: always 200 while the process can answer at all. */
export function liveness() {
  return { ok: true as const, live: true as const, uptime_s: uptimeSeconds() };
}

/**
 * Fastify's serverFactory: the HTTP/1 server Fastify would make (same timeouts), liveness probes
 * answered first. `securityHeaders` are the ones the app's hooks put on a JSON answer, handed in
 * by api/app.ts (the lane adds no-store and the content headers, as the route's hooks would).
 */
export function livenessServer(securityHeaders: Readonly<Record<string, string>>) {
  const headers = Object.freeze({
    ...securityHeaders,
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
  });
  const answer = (response: ServerResponse) => {
    const text = JSON.stringify(liveness());
    response.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(text) });
    response.end(text);
  };
  return (handler: RequestListener, options: FastifyServerOptions): Server => {
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      if (request.url === LIVENESS_PATH && request.method === 'GET') answer(response);
      else handler(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
