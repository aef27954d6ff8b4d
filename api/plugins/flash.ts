import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FLASH_COOKIE, takeFlash } from '../http.ts';

/**
 * A failed form's flash is handed to its page once (api/http.ts); registered after the cookie parser.
 * Synchronous unless the request carries a flash cookie: every request passes here.
 */
async function flash(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.cookies?.[FLASH_COOKIE]) return done();
    takeFlash(request, reply).then(() => done(), done);
  });
}

export default fp(flash, { name: 'civitas-flash', dependencies: ['@fastify/cookie'] });
