import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal } from '../../shared/errors.ts';
import { isSameOriginRequest } from '../../shared/security.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    credentialDoor?: boolean;
  }
}

/**
 * request_provenance: routes marked `credentialDoor` accept only requests that originate from
 * the service's own origin. Runs before the body is read, so a forged request costs nothing.
 * Synchronous: every request passes here, and most are not for a credential door.
 */
async function sameOrigin(app: FastifyInstance, options: { origin: string }) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.routeOptions.config?.credentialDoor) return done();
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
