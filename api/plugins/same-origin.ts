import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal } from '../../shared/errors.ts';
import { isSameOriginRequest } from '../../shared/security.ts';
import type { SameOriginRule } from '../route.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    sameOrigin?: SameOriginRule;
    /** Shorthand for `sameOrigin: 'credential'`. */
    credentialDoor?: boolean;
  }
}

/**
 * request_provenance: each route's same-origin rule (route option `sameOrigin`, or `credentialDoor`),
 * checked before the body is read, so a forged request costs nothing. Synchronous: every request
 * passes here, and most routes have no rule.
 */
async function sameOrigin(app: FastifyInstance, options: { origin: string }) {
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config;
    const rule = config?.sameOrigin ?? (config?.credentialDoor ? 'credential' : undefined);
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
