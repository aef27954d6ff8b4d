import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal } from '../../shared/errors.ts';
import { isSameOriginRequest } from '../../shared/security.ts';
import type { SameOriginRule } from '../route.ts';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './session.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    sameOrigin?: SameOriginRule;
    /** Shorthand for `sameOrigin: 'credential'`. */
    credentialDoor?: boolean;
  }
}

/** Methods that change state (RFC 9110 section 9.2.1: everything but GET, HEAD, OPTIONS, TRACE). */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * True when a session cookie rides on the request, whether or not it is still valid: a browser
 * attaches it to any request a foreign page makes it send, so such a request is judged by where it
 * came from before anything looks the session up.
 */
function carriesSession(request: FastifyRequest): boolean {
  const cookies = request.cookies ?? {};
  return cookies[SESSION_COOKIE] !== undefined || cookies[SECURE_SESSION_COOKIE] !== undefined;
}

/**
 * The rule that applies: `credential` (strict) on credential doors and on every unsafe request a
 * session cookie rides on; the route's own rule otherwise. Programs that authenticate by a header
 * (continuity secret, relay token, Stripe signature) send no session cookie, so they keep their
 * route's rule.
 */
function ruleFor(request: FastifyRequest): SameOriginRule | undefined {
  const config = request.routeOptions.config;
  const declared = config?.sameOrigin ?? (config?.credentialDoor ? 'credential' : undefined);
  if (UNSAFE_METHODS.has(request.method) && carriesSession(request)) return 'credential';
  return declared;
}

/**
 * request_provenance: each unsafe request with a session cookie, and each route's own same-origin
 * rule (route option `sameOrigin`, or `credentialDoor`), checked before the body is read, so a
 * forged request costs nothing and changes nothing. Synchronous: every request passes here, and
 * most need no check.
 */
async function sameOrigin(app: FastifyInstance, options: { origin: string }) {
  app.addHook('onRequest', (request, _reply, done) => {
    const rule = ruleFor(request);
    if (!rule) return done();
    if (
      rule === 'form' &&
      request.headers.origin === undefined &&
      request.headers['sec-fetch-site'] === undefined
    )
      return done();
    const ok = isSameOriginRequest({
      origin: request.headers.origin,
      secFetchSite: request.headers['sec-fetch-site'] as string | undefined,
      serviceOrigin: options.origin,
      host: request.headers.host,
    });
    done(ok ? undefined : new Refusal('cross_origin_refused'));
  });
}

export default fp(sameOrigin, { name: 'civitas-same-origin' });
