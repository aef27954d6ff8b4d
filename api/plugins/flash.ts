import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { takeFlash } from '../http.ts';

/** A failed form's flash is handed to its page once (api/http.ts); registered after the cookie parser. */
async function flash(app: FastifyInstance) {
  app.addHook('onRequest', takeFlash);
}

export default fp(flash, { name: 'civitas-flash', dependencies: ['@fastify/cookie'] });
