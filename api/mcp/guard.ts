/** The /mcp transport guard, a plugin: it takes the Fastify instance to add its hooks and its DELETE route. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal, type ErrorBody } from '../../shared/errors.ts';
import { sameServiceOrigin } from '../../shared/boundaries/headers/provenance.ts';
import { JSONRPC, jsonRpcError } from './jsonrpc.ts';

export const MCP_PATH = '/mcp';
const ALLOWED_METHODS = 'GET, POST';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Fastify's codes for a body that is not JSON at all: JSON-RPC's parse error. */
const PARSE_FAILURES = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

const isMcp = (request: FastifyRequest) => request.routeOptions.url === MCP_PATH;

function parsedUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** A listening address that reaches loopback: a loopback address itself, or every interface. */
export function reachesLoopback(address: string): boolean {
  return (
    address === 'localhost' ||
    address === '::1' ||
    address === '0.0.0.0' ||
    address === '::' ||
    /^(::ffff:)?127\./.test(address)
  );
}

export interface HostPolicy {
  /** The configured origin (config.origin). */
  origin: string;
  /** True when the service listens on loopback: then localhost, 127.0.0.1 and [::1] are its names too. */
  loopback: boolean;
}

/**
 * DNS rebinding and cross-site writes (MCP transport, Security Warning): a browser always names
 * the page's origin in `Origin`, and a rebound name arrives in `Host`. Agents outside a browser
 * send no Origin and pass. Null: the request may proceed.
 */
export function originRefusal(
  headers: { origin?: string; host?: string },
  policy: HostPolicy,
): Refusal | null {
  const service = new URL(policy.origin);
  const claimed = headers.origin === undefined ? undefined : parsedUrl(headers.origin)?.origin;
  if (headers.origin !== undefined && !(claimed && sameServiceOrigin(claimed, service.origin))) {
    return new Refusal(
      'cross_origin_refused',
      {},
      `/mcp answers only requests from its own origin (${service.origin}) or from agents outside a browser, which send no Origin header.`,
    );
  }
  const host = headers.host ? parsedUrl(`http://${headers.host}`) : null;
  const ownHost =
    host !== null &&
    host.hostname === service.hostname &&
    (host.port || defaultPort(service.protocol)) === (service.port || defaultPort(service.protocol));
  const loopbackHost = host !== null && policy.loopback && LOOPBACK_NAMES.has(host.hostname);
  if (!ownHost && !loopbackHost) {
    return new Refusal(
      'cross_origin_refused',
      {},
      `The Host header must name this service (${service.host})${policy.loopback ? ' or a loopback name (localhost, 127.0.0.1, [::1])' : ''}.`,
    );
  }
  return null;
}

function listensOnLoopback(app: FastifyInstance): boolean {
  const address = app.server.address();
  return reachesLoopback(address && typeof address === 'object' ? address.address : app.civitas.config.host);
}

/** The id of the JSON-RPC request a refusal answers, when its body was read (a 429 comes after it is); else null. */
function requestId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/** A refusal body (ours, already serialised) re-worded as the JSON-RPC error an MCP client reads. */
function envelopeOf(
  payload: string,
  parseFailure: boolean,
  status: number,
  id: string | number | null,
): string | null {
  let body: ErrorBody;
  try {
    body = JSON.parse(payload) as ErrorBody;
  } catch {
    return null;
  }
  if (body?.ok !== false || typeof body.reason !== 'string') return null;
  const code = parseFailure
    ? JSONRPC.parseError
    : status === 400
      ? JSONRPC.invalidRequest
      : JSONRPC.serverError;
  const message = parseFailure ? 'Parse error: the body is not valid JSON.' : body.hint;
  return JSON.stringify(jsonRpcError(id, code, message, body));
}

/**
 * The /mcp door's transport rules, beside (not inside) its registry routes: Origin and Host are
 * checked before the body is read or any budget spent, every refusal on /mcp (403, 413, 415,
 * 429 …) reads as a JSON-RPC error envelope with our refusal body as `data` (headers such as
 * Retry-After kept), and DELETE — a stateless server has no session to end — answers 405.
 */
async function mcpGuard(app: FastifyInstance) {
  const parseFailures = new WeakSet<FastifyRequest>();

  // Synchronous hooks: they run on every request, and only /mcp's do anything.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isMcp(request)) return done();
    const refusal = originRefusal(
      // request.host: the Host header, or X-Forwarded-Host from a trusted proxy (CIVITAS_TRUST_PROXY)
      // that names the upstream by its own name (the split deploy's relay, a default nginx).
      { origin: request.headers.origin, host: request.host },
      { origin: app.civitas.config.origin, loopback: listensOnLoopback(app) },
    );
    done(refusal ?? undefined);
  });
  app.addHook('onError', async (request, _reply, error) => {
    if (isMcp(request) && error.code && PARSE_FAILURES.has(error.code)) parseFailures.add(request);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !isMcp(request)) return done(null, payload);
    const id = requestId(request.body);
    done(null, envelopeOf(payload, parseFailures.has(request), reply.statusCode, id) ?? payload);
  });

  app.route({
    method: ['DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    config: { rateClass: 'read' },
    handler: async (_request, reply) => {
      reply.code(405).header('allow', ALLOWED_METHODS);
      return new Refusal(
        'method_not_allowed',
        { allow: ALLOWED_METHODS },
        'This MCP server is stateless: there is no session to end. POST JSON-RPC to /mcp; GET /mcp describes it.',
      ).body();
    },
  });
}

export default fp(mcpGuard, { name: 'civitas-mcp-guard', dependencies: ['civitas-errors'] });
