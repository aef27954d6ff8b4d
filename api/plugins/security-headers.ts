import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CONTENT_SECURITY_POLICY, cacheControlForCredentialResponse, hstsHeader } from '../../shared/security.ts';

/** The same on every response, so built once per process. */
const EVERY_RESPONSE: Readonly<Record<string, string>> = Object.freeze({
  'strict-transport-security': hstsHeader(),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
});

/**
 * Headers every response carries (connection_claim and friends), and the set_cookie_replay rule:
 * any response that sets a cookie is `private, no-store`, so no shared cache can replay it.
 * Applied by construction in onSend, not remembered route by route. A synchronous hook: it runs
 * on every response, and an async one would cost a promise and a microtask each time.
 */
async function securityHeaders(app: FastifyInstance) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(EVERY_RESPONSE);
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    if (reply.hasHeader('set-cookie')) reply.header('cache-control', cacheControlForCredentialResponse());
    done(null, payload);
  });
}

export default fp(securityHeaders, { name: 'civitas-security-headers' });
