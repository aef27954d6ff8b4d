import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CONTENT_SECURITY_POLICY, cacheControlForCredentialResponse, hstsHeader } from '../../shared/security.ts';

/**
 * Headers every response carries (connection_claim and friends), and the set_cookie_replay rule:
 * any response that sets a cookie is `private, no-store`, so no shared cache can replay it.
 * Applied by construction in onSend, not remembered route by route.
 */
async function securityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('strict-transport-security', hstsHeader());
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    if (reply.hasHeader('set-cookie')) reply.header('cache-control', cacheControlForCredentialResponse());
    return payload;
  });
}

export default fp(securityHeaders, { name: 'civitas-security-headers' });
